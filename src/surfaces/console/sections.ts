import type { Context } from 'hono';
import type { AppEnv } from '../../platform/context.js';
import type { Html } from './layout.js';

/**
 * A page another part of the sandbox adds to the console (the MCP sessions, say): it gets a nav
 * entry, the console's guard and shell, and renders its body from the request.
 */
export interface ConsoleSection {
  /** Under /console, e.g. /console/mcp-sessions. */
  path: `/console/${string}`;
  title: string;
  render(c: Context<AppEnv>): Html | Promise<Html>;
}

export interface ConsoleOptions {
  /** Extra pages, in nav order after the console's own. */
  sections?: readonly ConsoleSection[];
}
