import type { Wire } from '../api/schemas.js';

/** A generator that knows the wire: against the rule (vertical-shape.test.ts finds it). */
export const seeded: Wire = { id: 'seeded' };
