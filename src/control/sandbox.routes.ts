import { createRoute } from '@hono/zod-openapi';
import { EARLIEST_INSTANT, LATEST_INSTANT } from '../lib/calendar.js';
import { admin, errorResponses, jsonBody, jsonContent } from '../platform/openapi.js';
import { ClockChange, ClockState, PaceSet, PaceState, ResetResult } from './sandbox.schemas.js';

const tags = ['Sandbox control'];

export { admin };

export const getClock = createRoute({
  method: 'get',
  path: '/__sandbox/clock',
  operationId: 'sandbox_get_clock',
  tags,
  summary: 'Read the sandbox clock',
  ...admin,
  responses: { 200: jsonContent(ClockState, 'The sandbox time'), ...errorResponses([401]) },
});

export const setClock = createRoute({
  method: 'post',
  path: '/__sandbox/clock',
  operationId: 'sandbox_set_clock',
  tags,
  summary: 'Move the sandbox clock (token expiry, scheduled runs and webhook retries follow it)',
  description: `Moves the clock by \`advance_seconds\` or sets it to \`now\`, and/or changes its \`mode\`: \`{"mode": "system"}\` goes back to the machine's time (every earlier move dropped) and follows it; \`{"mode": "manual"}\` stops the clock at its current reading until moved. A mode given with a move applies first. A move outside the sandbox's calendar (${EARLIEST_INSTANT.toISOString()} to ${LATEST_INSTANT.toISOString()}) is refused with 422 and the clock stays where it was; background work that came due is done before the answer.`,
  ...admin,
  request: { body: jsonBody(ClockChange, 'mode, advance_seconds or now') },
  responses: { 200: jsonContent(ClockState, 'The new sandbox time'), ...errorResponses([401, 422]) },
});

export const reset = createRoute({
  method: 'post',
  path: '/__sandbox/reset',
  operationId: 'sandbox_reset',
  tags,
  summary: 'Put the seeded world back, as at start',
  ...admin,
  responses: { 200: jsonContent(ResetResult, 'The world was reseeded'), ...errorResponses([401]) },
});

export const getPace = createRoute({
  method: 'get',
  path: '/__sandbox/pace',
  operationId: 'sandbox_get_pace',
  tags,
  summary: 'Read the pace of the generated business',
  ...admin,
  responses: { 200: jsonContent(PaceState, 'The pace, and its changes'), ...errorResponses([401]) },
});

export const setPace = createRoute({
  method: 'post',
  path: '/__sandbox/pace',
  operationId: 'sandbox_set_pace',
  tags,
  summary: 'Set the pace of the generated business (quiet, normal, busy) from a day on',
  description:
    "Scales how much business each day draws in every vertical that goes on with the clock, from `from` (default: the clock's day) on. The days before keep theirs; a change from a day already over rewrites those days, so give a day still to come to keep what clients read.",
  ...admin,
  request: { body: jsonBody(PaceSet, 'pace, from') },
  responses: { 200: jsonContent(PaceState, 'The pace, and its changes'), ...errorResponses([401, 422]) },
});
