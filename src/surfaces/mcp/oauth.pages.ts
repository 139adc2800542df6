import { escapeHtml, htmlDocument } from '../../lib/html.js';
import type { ConsumerRecord } from '../../store/world.js';
import type { AuthorizationRequest, RegisteredClient } from './oauth.domain.js';

/**
 * The pages of the sandbox's authorization endpoint: plain server-rendered HTML forms, no script and
 * no external asset. Every dynamic value goes through `html`.
 */

/** Every dynamic value of these pages goes through it. */
export const html = escapeHtml;

const STYLE =
  'body{font:15px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#222}' +
  'fieldset{border:1px solid #ccc;margin:1rem 0;padding:.5rem 1rem}label{display:block}' +
  '.error{background:#fde8e8;border:1px solid #e99;padding:.5rem 1rem}.scopes label{display:inline-block;min-width:20rem}' +
  'input[type=text],input[type=password],input[type=search]{width:100%;box-sizing:border-box;padding:.3rem}' +
  'button{margin:.3rem .3rem .3rem 0;padding:.3rem .8rem}code{background:#f3f3f3;padding:0 .2em}';

const page = (title: string, body: string): string =>
  htmlDocument(`${title}: unified-api-sandbox`, STYLE, body);

const hidden = (name: string, value: string) =>
  `<input type="hidden" name="${html(name)}" value="${html(value)}">`;

const errorBox = (error: string | null) => (error ? `<p class="error" role="alert">${html(error)}</p>` : '');

const clientLabel = (client: RegisteredClient) =>
  client.client_name ? `${client.client_name} (${client.client_id})` : client.client_id;

/** The authorization request's parameters, carried by the sign-in form. */
function requestFields(request: AuthorizationRequest): string {
  const fields: [string, string | null][] = [
    ['response_type', 'code'],
    ['client_id', request.client_id],
    ['redirect_uri', request.redirect_uri],
    ['state', request.state],
    ['code_challenge', request.code_challenge],
    ['code_challenge_method', 'S256'],
    ['scope', request.scope.join(' ')],
    ['resource', request.resource],
  ];
  return fields
    .filter((field): field is [string, string] => field[1] !== null)
    .map(([name, value]) => hidden(name, value))
    .join('\n');
}

/** Step 1: the user signs in with an API key of the vendor account (as POST /token takes it). */
export function signInPage(
  client: RegisteredClient,
  request: AuthorizationRequest,
  error: string | null = null,
) {
  return page(
    'Sign in',
    `<h1>Connect an MCP client</h1>
<p><strong>${html(clientLabel(client))}</strong> asks to reach one of your consumers through the MCP server.</p>
<p>Sign in with an API key of your account, as <code>POST /token</code> takes it (the sandbox prints them:
<code>unified-api-sandbox env</code>).</p>
${errorBox(error)}
<form method="post" action="/oauth/authorize">
${requestFields(request)}
<label>Account id <input type="text" name="account_id" required autocomplete="off"></label>
<label>Client id of the API key <input type="text" name="api_client_id" required autocomplete="off"></label>
<label>Client secret of the API key <input type="password" name="api_client_secret" required autocomplete="off"></label>
<button type="submit" name="action" value="sign_in">Sign in</button>
</form>`,
  );
}

export interface ConsentView {
  client: RegisteredClient;
  /** Where Allow sends the code. */
  redirectUri: string;
  pendingId: string;
  search: string;
  page: number;
  pages: number;
  total: number;
  consumers: ConsumerRecord[];
  selectedConsumer: string | null;
  scopes: string[];
  ticked: ReadonlySet<string>;
  error: string | null;
}

/** Step 2: the user picks a consumer (searched, by pages) and ticks scopes among those allowed. */
export function consentPage(view: ConsentView): string {
  const rows = view.consumers
    .map((consumer) => {
      const checked = consumer.consumerid === view.selectedConsumer ? ' checked' : '';
      const extra = [consumer.email, consumer.internal_reference].filter(Boolean).join(', ');
      return `<label><input type="radio" name="consumer_id" value="${html(consumer.consumerid)}"${checked}> ${html(consumer.name)}${extra ? ` <small>(${html(extra)})</small>` : ''} <small><code>${html(consumer.consumerid)}</code></small></label>`;
    })
    .join('\n');
  const groups = new Map<string, string[]>();
  for (const scope of view.scopes) {
    const area = scope.split('.')[0] as string;
    groups.set(area, [...(groups.get(area) ?? []), scope]);
  }
  const scopeBoxes = [...groups]
    .map(
      ([area, scopes]) =>
        `<fieldset class="scopes"><legend>${html(area)}</legend>\n${scopes
          .map(
            (scope) =>
              `<label><input type="checkbox" name="scope" value="${html(scope)}"${view.ticked.has(scope) ? ' checked' : ''}> ${html(scope)}</label>`,
          )
          .join('\n')}\n</fieldset>`,
    )
    .join('\n');
  const previous =
    view.page > 1 ? `<button type="submit" name="goto" value="${view.page - 1}">Previous page</button>` : '';
  const next =
    view.page < view.pages
      ? `<button type="submit" name="goto" value="${view.page + 1}">Next page</button>`
      : '';
  return page(
    'Choose a consumer and scopes',
    `<h1>Choose a consumer and scopes</h1>
<p><strong>${html(clientLabel(view.client))}</strong> will reach the consumer you pick, with the scopes you tick, for 30 minutes at a time.</p>
<p>Allow sends the authorization to <code>${html(view.redirectUri)}</code>: allow only a client you started yourself.</p>
${errorBox(view.error)}
<form method="post" action="/oauth/authorize">
${hidden('pending', view.pendingId)}
<fieldset><legend>Consumer</legend>
<label>Search by name, e-mail or internal reference <input type="search" name="search" value="${html(view.search)}"></label>
<button type="submit" name="action" value="search">Search</button>
<p>${view.total} consumer${view.total === 1 ? '' : 's'}; page ${view.page} of ${Math.max(view.pages, 1)}.</p>
${rows || '<p>No consumer matches.</p>'}
${previous}${next}
</fieldset>
<fieldset><legend>Scopes</legend>
${scopeBoxes || '<p>This API key may hand out no MCP scope on this environment.</p>'}
</fieldset>
<button type="submit" name="action" value="approve">Allow</button>
<button type="submit" name="action" value="deny">Deny</button>
</form>`,
  );
}

/** An error or a denial shown to the user instead of going back to the client (oauth.routes.ts says when). */
export function errorPage(message: string): string {
  return page('Authorization error', `<h1>Authorization error</h1>${errorBox(message)}`);
}
