/**
 * Routes the service serves and its official clients (the SDKs) call, but that its published OpenAPI
 * document leaves out. The sandbox serves them and documents them in its own document, each marked
 * with CLIENT_ROUTE_MARKER, so that the comparisons with the reference document (test/contract.test.ts)
 * can tell them from the operations the reference describes.
 */

/** The OpenAPI extension that marks such an operation. */
export const CLIENT_ROUTE_MARKER = 'x-sandbox-client-route' as const;

/** What every such operation's description ends with. */
export const CLIENT_ROUTE_NOTE =
  "The official clients call this route; the service's published OpenAPI document does not describe it.";

/** The marker and the description of an operation the official clients call; spread into createRoute. */
export function clientRoute(description: string) {
  return { [CLIENT_ROUTE_MARKER]: true as const, description: `${description} ${CLIENT_ROUTE_NOTE}` };
}
