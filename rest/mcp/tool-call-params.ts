// tools/call's params as the protocol defines them: a tool name and, if any, an object of
// arguments. The SDK checks them with its own schema and answers a mismatch with an internal error
// (-32603) whose message is the validator's dump; this answers it first, as JSON-RPC's "invalid
// params" (-32602) with a sentence saying what is expected.
const INVALID_PARAMS = -32602;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The JSON-RPC error answering a malformed tools/call request, or undefined when it is well formed (or not a tools/call request). */
export function invalidToolCall(
  message: unknown,
): { jsonrpc: '2.0'; id: unknown; error: { code: number; message: string } } | undefined {
  if (!isObject(message) || message.method !== 'tools/call' || !('id' in message)) return undefined;
  const params = message.params;
  const problem = !isObject(params)
    ? 'params must be an object {name, arguments}'
    : typeof params.name !== 'string'
      ? 'params.name must be the name of a tool (a string; tools/list names them)'
      : params.arguments !== undefined && !isObject(params.arguments)
        ? `params.arguments must be an object of the tool's parameters, not ${Array.isArray(params.arguments) ? 'an array' : params.arguments === null ? 'null' : `a ${typeof params.arguments}`}`
        : undefined;
  if (!problem) return undefined;
  return {
    jsonrpc: '2.0',
    id: message.id,
    error: { code: INVALID_PARAMS, message: `Invalid params: ${problem}.` },
  };
}
