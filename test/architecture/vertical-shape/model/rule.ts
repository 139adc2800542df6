/** A rule that reaches into the world: against the rule (vertical-shape.test.ts finds it). */
export const seededLater = async () => (await import('../world/seed.js')).seeded;
