import { html } from 'hono/html';
import { guidePath } from '../../lib/guides.js';
import type { McpSessionInfo } from '../mcp/index.js';
import { MAX_SESSIONS, MAX_SESSIONS_PER_ACCOUNT } from '../mcp/sessions.js';
import { code } from './layout.js';
import type { ConsoleSection } from './sections.js';

/** What the console reads the MCP sessions from: the MCP server's own list (services.mcp). */
export interface McpSessionSource {
  sessions(): readonly McpSessionInfo[];
}

/** The "MCP sessions" page: who is connected to /mcp, for which consumer, with which scopes. */
export function mcpSessionsSection(source: McpSessionSource): ConsoleSection {
  return {
    path: '/console/mcp-sessions',
    title: 'MCP sessions',
    render: (c) => {
      const sessions = source.sessions();
      const consumers = c.get('store').world.consumers;
      const intro = html`<p>Sessions open on the MCP server at ${code('/mcp')} (see <a href="${guidePath('mcp')}">the MCP guide</a>), newest
        first. A session ends when it is closed, when its token expires on the sandbox clock, on reset, or when
        its account opens more than ${String(MAX_SESSIONS_PER_ACCOUNT)} (its least recently used one). Past
        ${String(MAX_SESSIONS)} sessions in all, a new one is refused.</p>`;
      if (sessions.length === 0) return html`${intro}<p class="muted">No MCP session.</p>`;
      const newest = [...sessions].sort((a, b) => b.created_at.localeCompare(a.created_at));
      return html`${intro}<table>
        <thead><tr><th scope="col">Session</th><th scope="col">Consumer</th><th scope="col">Client</th>
        <th scope="col">Scopes</th><th scope="col">Started</th><th scope="col">Last used</th>
        <th scope="col">Expires</th><th scope="col">Tool calls</th></tr></thead>
        <tbody>${newest.map(
          (s) => html`<tr>
            <td>${code(s.session_id)}</td>
            <td><a href="/console/consumers/${s.consumer_id}">${consumers[s.consumer_id]?.name ?? s.consumer_id}</a><br><small>${code(s.consumer_id)}</small></td>
            <td>${s.oauth_client_name ?? s.oauth_client_id ?? 'MCP token'}<br><small>key ${code(s.client_id)}</small></td>
            <td>${s.scopes.join(', ')}</td>
            <td>${code(s.created_at)}</td><td>${code(s.last_used_at)}</td><td>${code(s.expires_at)}</td>
            <td>${String(s.calls)}</td>
          </tr>`,
        )}</tbody>
      </table>`;
    },
  };
}
