import { addDays, customPost, verticalExamples } from '../../../platform/examples.js';

/** The request body examples of the Banking operations (see platform/examples.ts), by operationId. */
export const bankingExamples = verticalExamples({
  banking_custom_post: {
    path: '/consumers/{consumer_id}/banking/{custom_path}',
    // Below banking/ the custom path starts with custom/ by convention.
    build: (w) =>
      customPost(w, w.scope('banking', 'Banking').connection, 'custom/payment-batches', 'BATCH', {
        execution_date: addDays(w.today, 1),
        total: 2150,
        currency: 'EUR',
      }),
  },
});
