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

/**
 * Operations that a newer version of the service's published OpenAPI document describes, but not the
 * reference version the contract test compares with (test/reference/facts.json). The sandbox serves
 * them as that newer version describes them and marks each with NEWER_REFERENCE_MARKER, whose value
 * is the version's date; the contract test compares them with that version's facts
 * (test/reference/facts-newer.json). They are not client routes: the published document has them.
 */
export const NEWER_REFERENCE_MARKER = 'x-sandbox-newer-reference' as const;

/** What every such operation's description ends with, before the version's date. */
export const NEWER_REFERENCE_NOTE =
  "The service's published OpenAPI document describes this operation from its version of";

/** The marker and the description of an operation of a newer published version; spread into createRoute. */
export function newerReferenceOperation(version: string, description: string) {
  return {
    [NEWER_REFERENCE_MARKER]: version,
    description: `${description} ${NEWER_REFERENCE_NOTE} ${version}.`,
  };
}
