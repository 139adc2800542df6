/** A wire shape, for the check of the vertical folders' rule (vertical-shape.test.ts). */
export interface Wire {
  id: string;
}
