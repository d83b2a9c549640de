// A callbackUrl on loopback (the local listener, npm run webhooks:listen) is accepted in
// development only; production and test servers refuse it as before, and no other private address
// or plain-http URL gets in through it.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/platform/config.ts';
import type { Services } from '../../src/platform/services.ts';
import { checkCallbackUrl } from '../../src/platform/egress/callback-url.ts';

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const servicesIn = (NODE_ENV: string) =>
  ({ config: loadConfig({ NODE_ENV, WEBHOOK_SIGNING_SECRET: SECRET }) }) as unknown as Services;
const refusal = (services: Services, url: string) => {
  try {
    checkCallbackUrl(services, url);
    return null;
  } catch (error) {
    return (error as { details?: { rule?: string } }).details?.rule ?? String(error);
  }
};

describe('a loopback callbackUrl', () => {
  it('is accepted in development, http or https, by address or as localhost', () => {
    const development = servicesIn('development');
    for (const url of [
      'http://127.0.0.1:4242/webhooks',
      'http://localhost:4242/webhooks',
      'http://[::1]:4242/webhooks',
      'https://127.0.0.1:4242/x',
    ]) {
      expect([url, refusal(development, url)]).toEqual([url, null]);
    }
  });

  it('is refused in production and in tests, and development still refuses other private addresses and plain http', () => {
    for (const env of ['production', 'test']) {
      expect(refusal(servicesIn(env), 'http://127.0.0.1:4242/webhooks')).toMatch(/https/);
      expect(refusal(servicesIn(env), 'https://127.0.0.1:4242/webhooks')).toMatch(/loopback/);
    }
    const development = servicesIn('development');
    expect(refusal(development, 'https://10.0.0.5/webhooks')).toMatch(/private/);
    expect(refusal(development, 'http://hooks.example.com/webhooks')).toMatch(/https/);
  });
});
