import { own } from '../../../lib/own.js';
import { addDays } from '../../../platform/seeding/vertical-data.js';
import type { FieldRefValue } from '../../../store/world.js';
import type { InvoicingOpportunity } from '../model/invoicing.records.js';

/**
 * An opportunity of the sales pipeline, for the seeder and for fixtures alike: an open one sits at a
 * stage of the pipeline with no end and no outcome; a closed one (won, lost, cancelled, closed) has
 * an end, and a won one is certain (100%), the others hopeless (0%). It is due 45 days after it was
 * created unless told otherwise.
 */

export const PIPE_STAGES = ['Qualification', 'Proposal', 'Negotiation'] as const;

/** The chance an open opportunity has at each stage of the pipeline. */
const STAGE_PROBABILITY: Record<string, number> = { Qualification: 20, Proposal: 50, Negotiation: 75 };

/** The probability a closed opportunity has (null: open, its stage decides). */
export const closedProbability = (status: InvoicingOpportunity['status']): number | null =>
  status === 'open' ? null : status === 'won' ? 100 : 0;

export interface OpportunityFields
  extends Pick<
    InvoicingOpportunity,
    'id' | 'source_ref' | 'name' | 'total' | 'status' | 'partner_id' | 'currency' | 'pipe_name'
  > {
  created_date: string;
  /** For a closed one; ignored for an open one. */
  end_date: string | null;
  /** An open one's stage (default Qualification). */
  stage?: string | undefined;
  probability?: number | undefined;
  pipe_status?: string | undefined;
  due_date?: string | null | undefined;
  comment?: string | null | undefined;
  description?: string | null | undefined;
  owner_ref?: FieldRefValue | null | undefined;
}

export function opportunityRecord(fields: OpportunityFields): InvoicingOpportunity {
  const open = fields.status === 'open';
  const stage = fields.stage ?? PIPE_STAGES[0];
  return {
    id: fields.id,
    source_ref: fields.source_ref,
    name: fields.name,
    total: fields.total,
    probability:
      fields.probability ?? closedProbability(fields.status) ?? own(STAGE_PROBABILITY, stage) ?? 50,
    status: fields.status,
    partner_id: fields.partner_id,
    comment: fields.comment ?? null,
    currency: fields.currency,
    description: fields.description ?? null,
    pipe_status: fields.pipe_status ?? (open ? stage : fields.status === 'won' ? 'Won' : 'Lost'),
    pipe_name: fields.pipe_name,
    created_date: fields.created_date,
    due_date: fields.due_date === undefined ? addDays(fields.created_date, 45) : fields.due_date,
    end_date: open ? null : fields.end_date,
    is_won: open ? null : fields.status === 'won',
    owner_ref: fields.owner_ref ?? null,
  };
}
