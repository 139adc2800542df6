import type { RouteHandler } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { ApiError, errors } from '../../lib/errors.js';
import { own, putOwn } from '../../lib/own.js';
import { requireConsumer } from '../../platform/access.js';
import type { AppEnv } from '../../platform/context.js';
import { requestServices } from '../../platform/request-context.js';
import { publicOrigin } from '../../platform/urls.js';
import type { ConnectionRecord, ConsumerRecord, LinkRecord, World } from '../../store/world.js';
import { imageUrl } from '../integrations/index.js';
import { connectionEvent, publishEvent } from '../webhooks/index.js';
import { repairedConnection } from './connection-life.js';
import {
  completeLink,
  connectionsOf,
  createConnection,
  deleteConnection,
  findTransaction,
  type LinkSubmission,
  linkIntegrations,
  mandatoryPostConnections,
  postConnectionChoices,
  requireConnection,
  requireOpenLink,
  toConnectionItem,
  updateConnection,
} from './connections.domain.js';
import type * as routes from './connections.routes.js';
import type { HttpMethodName, LinkCompletionFormInput, LinkCompletionInput } from './connections.schemas.js';
import {
  acceptsHtml,
  credentialField,
  type OfferedIntegration,
  postConnectionField,
  renderConnectedPage,
  renderLinkPage,
} from './link-page.js';

type Handler<R extends keyof typeof routes> = RouteHandler<(typeof routes)[R], AppEnv>;

const linkUrl = (c: Context<AppEnv>, link: LinkRecord) =>
  `${publicOrigin(c.get('config'), c.req.url)}/link/${link.linkid}`;

export const listConnections: Handler<'listConnections'> = (c) => {
  const consumer = requireConsumer(
    c.get('store').world,
    c.get('principal'),
    c.req.valid('param').consumer_id,
  );
  const items = connectionsOf(c.get('store').world, consumer.consumerid).map((connection) =>
    toConnectionItem(connection, c.get('catalogue'), c.get('clock').now().toISOString()),
  );
  return c.json(items, 200);
};

export const createConnectionHandler: Handler<'createConnection'> = async (c) => {
  const store = c.get('store');
  const principal = c.get('principal');
  const consumer = requireConsumer(store.world, principal, c.req.valid('param').consumer_id);
  const { connection, link } = createConnection(
    store.world,
    requestServices(c),
    consumer,
    c.req.valid('json'),
  );
  if (connection) {
    c.set('createdEntityId', connection.connectionid);
    publishEvent(c.var, connectionEvent('created', consumer, connection));
  }
  return c.json({ url: linkUrl(c, link) }, 200);
};

export const updateConnectionHandler: Handler<'updateConnection'> = async (c) => {
  const store = c.get('store');
  const principal = c.get('principal');
  const { consumer_id, connectionid } = c.req.valid('param');
  const consumer = requireConsumer(store.world, principal, consumer_id);
  const input = c.req.valid('json');
  const link = updateConnection(store.world, requestServices(c), consumer, connectionid, input);
  const connection = own(store.world.connections, link.connectionid ?? '');
  if (connection) {
    // New credentials repair a connection whose credentials expired.
    if (input?.credentials && connection.status === 'active') repairedConnection(c.var, connection);
    publishEvent(c.var, connectionEvent('updated', consumer, connection));
  }
  return c.json({ url: linkUrl(c, link) }, 200);
};

export const deleteConnectionHandler: Handler<'deleteConnection'> = async (c) => {
  const store = c.get('store');
  const principal = c.get('principal');
  const { consumer_id, connectionid } = c.req.valid('param');
  const consumer = requireConsumer(store.world, principal, consumer_id);
  const connection = requireConnection(store.world, consumer, connectionid);
  deleteConnection(store.world, connection);
  publishEvent(c.var, connectionEvent('deleted', consumer, connection));
  return c.body(null, 204);
};

export const getTransaction: Handler<'getTransaction'> = (c) => {
  const store = c.get('store');
  const principal = c.get('principal');
  const { consumer_id, connection_id } = c.req.valid('param');
  const consumer = requireConsumer(store.world, principal, consumer_id);
  const transaction = findTransaction(
    store.world,
    consumer,
    connection_id,
    c.req.valid('query').client_request_id,
  );
  return c.json(
    {
      created_on: transaction.created_on,
      // Recorded from c.req.method by the transactions middleware, so one of HTTPMethod's values.
      method: transaction.method as HttpMethodName,
      route: transaction.route,
      status_code: transaction.status_code,
      created_entity_id: transaction.created_entity_id,
    },
    200,
  );
};

/** The integrations the page of a link offers, with their logos and mandatory post connections. */
function offeredIntegrations(
  c: Context<AppEnv>,
  link: LinkRecord,
  consumer: ConsumerRecord,
  connection: ConnectionRecord | null,
): OfferedIntegration[] {
  const origin = publicOrigin(c.get('config'), c.req.url);
  const sources = { store: c.get('store'), caches: c.get('caches'), verticals: c.get('verticals') };
  return linkIntegrations(c.get('catalogue'), link).map((integration) => ({
    integration,
    // `in`, not a read: reading an image draws it.
    logoUrl: 'logo' in integration.images ? imageUrl(origin, integration.integrationid, 'logo') : null,
    postConnections: mandatoryPostConnections(integration).map((definition) => ({
      definition,
      choices: postConnectionChoices(sources, integration, consumer.consumerid, connection, definition),
    })),
  }));
}

const linkConnection = (world: World, link: LinkRecord) =>
  link.connectionid !== null ? (own(world.connections, link.connectionid) ?? null) : null;

export const getLinkPage: Handler<'getLinkPage'> = (c) => {
  const world = c.get('store').world;
  const { link, consumer } = requireOpenLink(world, c.req.valid('param').linkid);
  const connection = linkConnection(world, link);
  // The page starts from the post connection values the connection holds.
  const values = Object.fromEntries(
    Object.entries(connection?.post_connections ?? {}).map(([id, value]) => [
      postConnectionField(connection?.integrationid ?? -1, id),
      value,
    ]),
  );
  const offered = offeredIntegrations(c, link, consumer, connection);
  return c.html(renderLinkPage({ link, consumer, connection, offered, values }), 200);
};

const FORM_TYPE = /^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i;

/** The fields of one integration whose names start with `prefix`, by what follows it. */
function fieldsOf(form: Record<string, string>, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, value] of Object.entries(form)) {
    if (field.startsWith(prefix)) putOwn(out, field.slice(prefix.length), value);
  }
  return out;
}

/** Reads the page's form fields: integrationid and the credential and post connection fields of that integration. */
function formSubmission(form: Record<string, string>, fixed: number | null): LinkSubmission {
  const raw = form.integrationid?.trim() ?? '';
  let integrationid: number | null = null;
  if (raw !== '') {
    if (!/^\d{1,15}$/.test(raw)) throw errors.integrationInvalid();
    integrationid = Number(raw);
  }
  const chosen = integrationid ?? fixed ?? -1;
  return {
    integrationid,
    credentials: fieldsOf(form, credentialField(chosen, '')),
    postConnections: fieldsOf(form, postConnectionField(chosen, '')),
    placeholders: false,
  };
}

export const completeLinkHandler: Handler<'completeLink'> = async (c) => {
  const store = c.get('store');
  const { link, consumer } = requireOpenLink(store.world, c.req.valid('param').linkid);
  const asForm = FORM_TYPE.test(c.req.header('content-type') ?? '');
  let connection: ConnectionRecord;
  const existed = link.connectionid !== null;
  if (asForm) {
    const form = c.req.valid('form') as LinkCompletionFormInput;
    try {
      connection = completeLink(
        store.world,
        requestServices(c),
        link,
        formSubmission(form, link.integrationid),
      );
    } catch (error) {
      // A browser gets the page again, with the refusal and what was typed; the refusal's status
      // keeps the write boundary from keeping anything.
      if (!(error instanceof ApiError) || !acceptsHtml(c.req.header('accept'))) throw error;
      const before = linkConnection(store.world, link);
      const offered = offeredIntegrations(c, link, consumer, before);
      const refusal = { message: error.message, detail: error.detail };
      return c.html(
        renderLinkPage({ link, consumer, connection: before, offered, values: form, error: refusal }),
        // Every refusal of completeLink is a 400 (the link was found open above).
        error.status as 400,
      );
    }
  } else {
    const body = c.req.valid('json') as LinkCompletionInput;
    connection = completeLink(store.world, requestServices(c), link, {
      integrationid: body.integrationid ?? null,
      credentials: body.credentials ?? {},
      postConnections: body.post_connections ?? {},
      placeholders: true,
    });
  }
  if (existed) repairedConnection(c.var, connection);
  publishEvent(c.var, connectionEvent(existed ? 'updated' : 'created', consumer, connection));
  if (!asForm) return c.json({ status: 'active' as const, connectionid: connection.connectionid }, 200);
  if (link.redirect && consumer.redirect_url) return c.redirect(consumer.redirect_url, 303);
  return c.html(renderConnectedPage(consumer, c.get('catalogue').get(connection.integrationid)), 200);
};
