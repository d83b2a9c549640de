// An HTTPS webhook receiver on loopback with a certificate for hooks.test signed by a throw-away CA
// (made with the openssl CLI). The CA file is what NODE_EXTRA_CA_CERTS names in the tests; the
// receiver answers each request with the next status of `statuses` (the last one repeats).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
}

export interface HttpsReceiver {
  port: number;
  caFile: string;
  received: ReceivedWebhook[];
  close(): Promise<void>;
}

function makeCertificates(dir: string, host: string) {
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  run(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=Scrape Test CA',
  );
  run(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
    '-subj',
    `/CN=${host}`,
  );
  writeFileSync(join(dir, 'ext.cnf'), `subjectAltName=DNS:${host}\n`);
  run(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.pem',
    '-days',
    '2',
    '-extfile',
    'ext.cnf',
  );
}

export async function startHttpsReceiver(host: string, statuses: number[]): Promise<HttpsReceiver> {
  const dir = mkdtempSync(join(tmpdir(), 'scrape-receiver-'));
  makeCertificates(dir, host);
  const received: ReceivedWebhook[] = [];
  const server = https.createServer(
    { key: readFileSync(join(dir, 'server.key')), cert: readFileSync(join(dir, 'server.pem')) },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({
          headers: req.headers as Record<string, string>,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        res.writeHead(statuses[Math.min(received.length - 1, statuses.length - 1)]!).end();
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    caFile: join(dir, 'ca.pem'),
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}
