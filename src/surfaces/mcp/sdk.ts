/**
 * The pieces of the MCP SDK the server runs on, loaded on the first /mcp request (see loadSdk):
 * the SDK defines some two hundred zod schemas and a JSON Schema validator when it is imported, which
 * every start of the sandbox would otherwise pay (~40 ms of the command line's cold start).
 */
export { Server } from '@modelcontextprotocol/sdk/server/index.js';
export { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
export {
  CallToolRequestSchema,
  ErrorCode,
  isInitializeRequest,
  isJSONRPCRequest,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
