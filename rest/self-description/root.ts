// GET /: what this service is and where its self-description documents live.
import type { z } from 'zod';
import packageJson from '../../package.json' with { type: 'json' };
import type { RootDocument } from '../openapi/self-description-paths.ts';

export const SELF_DESCRIPTION_LINKS = {
  llmsTxt: '/v1/llms.txt',
  docs: '/v1/docs.md',
  reference: '/docs',
  openapi: '/v1/openapi.json',
  examples: '/v1/examples',
  health: '/v1/health',
  graphql: '/graphql',
  mcp: '/mcp',
} as const;

export function rootDocument(authRule: string): z.infer<typeof RootDocument> {
  return {
    name: 'Store-Intelligence API',
    version: packageJson.version,
    apiVersion: 'v1',
    description:
      'Facts about online stores on one e-commerce platform, their products and the apps they run: REST under /v1, ' +
      'GraphQL at /graphql. Start with the agent brief (links.llmsTxt).',
    links: { ...SELF_DESCRIPTION_LINKS },
    auth: authRule,
  };
}
