// A loopback receiver of signed webhooks (npm run webhooks:listen): verifies each delivery's
// Standard Webhooks signature and hands one printable line per delivery to `print`; an unverified
// delivery is answered 400 and reported, a verified one 204.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

const MAX_BODY = 1024 * 1024;

export interface WebhookListener {
  url: string;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1:`port` (0 = any free port); `print` gets one line per delivery. */
export async function listenForWebhooks(
  secret: string,
  port: number,
  print: (line: string) => void,
): Promise<WebhookListener> {
  const verifier = new Webhook(secret);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([name, value]) => [name, String(value)]),
      );
      try {
        if (req.method !== 'POST' || size > MAX_BODY)
          throw new Error(`${req.method} of ${size} bytes is not a delivery`);
        const event = verifier.verify(body, headers) as { type?: string };
        print(
          `${new Date().toISOString()}  ${event.type ?? 'event'}  ${headers['webhook-id']}\n${JSON.stringify(event, null, 2)}`,
        );
        res.writeHead(204).end();
      } catch (error) {
        print(
          `${new Date().toISOString()}  REJECTED ${req.method} ${req.url}: ${(error as Error).message} (not signed with this server's secret)`,
        );
        res.writeHead(400, { 'content-type': 'text/plain' }).end('signature not verified\n');
      }
    });
  });
  await new Promise<void>((resolve, reject) =>
    server.once('error', reject).listen(port, '127.0.0.1', resolve),
  );
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}/webhooks`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
