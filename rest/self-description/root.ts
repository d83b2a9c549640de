// GET /: what this service is and where its self-description documents live.
import { z } from 'zod';
import packageJson from '../../package.json' with { type: 'json' };

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

export const RootDocument = z
  .strictObject({
    name: z.string(),
    version: z.string(),
    apiVersion: z.literal('v1'),
    description: z.string(),
    links: z.strictObject({
      llmsTxt: z.string(),
      docs: z.string(),
      reference: z
        .string()
        .meta({ description: 'The HTML reference over the OpenAPI description.' }),
      openapi: z.string(),
      examples: z.string(),
      health: z.string(),
      graphql: z.string(),
      mcp: z.string().meta({
        description:
          'MCP over Streamable HTTP (POST): one tool per data route, the same key header.',
      }),
    }),
    auth: z.string(),
  })
  .meta({
    id: 'RootDocument',
    description: 'Root discovery document; links are paths on this host.',
  });

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
