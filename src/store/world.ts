/**
 * The stored world: one JSON document. Records are kept in maps keyed by their id so that a lookup
 * stays O(1) on a world of 100,000 consumers. Field names follow the service's own words.
 */

export type EnvironmentKind = 'sandbox' | 'production';
export type ActiveStatus = 'active' | 'inactive';

export interface AccountRecord {
  accountid: string;
  name: string;
}

export interface EnvironmentRecord {
  envid: string;
  accountid: string;
  name: string;
  kind: EnvironmentKind;
}

export interface ApiKeyRecord {
  clientid: string;
  accountid: string;
  envid: string;
  name: string;
  /** sha256 of the secret: the secret itself is shown once and never stored. */
  secret_sha256: string;
  /** null: every consumer of the environment; otherwise the consumers the key may reach. */
  consumers: string[] | null;
  /** Scopes an MCP token minted with this key may carry. */
  mcp_scopes: string[];
  created_on: string;
  deleted_on: string | null;
}

export interface ConsumerRecord {
  consumerid: string;
  accountid: string;
  envid: string;
  name: string;
  email: string | null;
  internal_reference: string | null;
  redirect_url: string | null;
  created_on: string;
}

export interface ConnectionRecord {
  connectionid: string;
  consumerid: string;
  integrationid: number;
  name: string;
  status: ActiveStatus;
  credentials: Record<string, string>;
  post_connections: Record<string, string>;
  datetimes: Record<string, string>;
  data: Record<string, unknown> | null;
  created_on: string;
  updated_on: string;
}

/** A link handed out by POST/PATCH connections, completed by the end user on the sandbox's page. */
export interface LinkRecord {
  linkid: string;
  consumerid: string;
  connectionid: string | null;
  integrationid: number | null;
  country: string | null;
  apis: string[] | null;
  redirect: boolean;
  created_on: string;
  completed_on: string | null;
}

export interface TransactionRecord {
  connectionid: string;
  client_request_id: string;
  created_on: string;
  method: string;
  route: string;
  status_code: number;
  created_entity_id: string | null;
  /** The first answer, replayed to a repeated request with the same client request id. */
  response_body: unknown;
}

export interface WebhookRecord {
  webhookid: string;
  accountid: string;
  envid: string;
  createdby: string | null;
  createdon: string;
  event: string;
  url: string;
  status: ActiveStatus;
  integrationid: number | null;
  signingsecret: string | null;
}

export interface WebhookLogRecord {
  webhooklogid: string;
  webhookid: string;
  event: string;
  url: string;
  accountid: string;
  createdon: string;
  httpstatus: number;
  integrationid: number | null;
}

/**
 * One event to deliver to one webhook instance (the outbox). `body` is the exact JSON text sent, so
 * that its signature and every retry carry the same bytes.
 */
export interface WebhookDeliveryRecord {
  deliveryid: string;
  webhookid: string;
  accountid: string;
  envid: string;
  consumerid: string | null;
  event: string;
  url: string;
  integrationid: number | null;
  body: string;
  created_on: string;
  /** Attempts made so far. */
  attempts: number;
  /** When the next attempt is due; null once delivered or given up. */
  next_attempt_at: string | null;
  state: 'pending' | 'delivered' | 'failed';
  last_httpstatus: number | null;
}

export interface WorldMeta {
  schema: 1;
  seed: number;
  size: WorldSize;
  /** Counter of minted ids (see lib/ids.ts). */
  sequence: number;
}

export type WorldSize = 'default' | 'large';

export interface World {
  meta: WorldMeta;
  accounts: Record<string, AccountRecord>;
  environments: Record<string, EnvironmentRecord>;
  keys: Record<string, ApiKeyRecord>;
  consumers: Record<string, ConsumerRecord>;
  connections: Record<string, ConnectionRecord>;
  links: Record<string, LinkRecord>;
  /** Keyed by `${connectionid}:${client_request_id}`. */
  transactions: Record<string, TransactionRecord>;
  webhooks: Record<string, WebhookRecord>;
  webhook_logs: Record<string, WebhookLogRecord>;
  webhook_deliveries: Record<string, WebhookDeliveryRecord>;
}

export const transactionKey = (connectionid: string, clientRequestId: string) =>
  `${connectionid}:${clientRequestId}`;

/** A world with no records: every collection the sandbox knows, empty. */
export function emptyWorld(seed: number, size: WorldSize): World {
  return {
    meta: { schema: 1, seed, size, sequence: 0 },
    accounts: {},
    environments: {},
    keys: {},
    consumers: {},
    connections: {},
    links: {},
    transactions: {},
    webhooks: {},
    webhook_logs: {},
    webhook_deliveries: {},
  };
}
