// Small HTTP helpers of the reliability tests: JSON GET and POST that never throw on a status.
export interface JsonResponse {
  status: number;
  headers: Headers;
  body: any;
}

export async function getJson(
  url: string,
  headers: Record<string, string> = {},
): Promise<JsonResponse> {
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

export async function postJson(
  url: string,
  payload: unknown,
  headers: Record<string, string> = {},
): Promise<JsonResponse> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(payload),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the test sees the text
  }
  return { status: response.status, headers: response.headers, body };
}
