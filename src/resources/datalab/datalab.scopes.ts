/** MCP scopes of the Datalab operations, as the reference lists them. */
export const DATALAB_SCOPES = [
  'pos.datalab',
  'commerce.datalab',
  'accounting.datalab',
  'invoicing.datalab',
  'communication.datalab',
  'banking.datalab',
  'custom.datalab',
  'payment.datalab',
  'pms.datalab',
] as const;
