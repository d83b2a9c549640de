// Small HTTP helpers of the reliability tests: a JSON GET that never throws on a status, and a
// poll with a deadline.
export interface JsonResponse {
  status: number;
  headers: Headers;
  body: any;
}

export async function getJson(url: string, headers: Record<string, string> = {}): Promise<JsonResponse> {
  const response = await fetch(url, { headers });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the test sees the text
  }
  return { status: response.status, headers: response.headers, body };
}

export async function postJson(url: string, payload: unknown, headers: Record<string, string> = {}): Promise<JsonResponse> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(payload) });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the test sees the text
  }
  return { status: response.status, headers: response.headers, body };
}

/** Calls `probe` until `done` holds for its result (errors count as "not yet"); fails after timeoutMs. */
export async function pollUntil<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number, intervalMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (done(value)) return value;
      last = value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms; last: ${last instanceof Error ? last.message : JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
