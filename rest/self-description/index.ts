export { renderDocsMarkdown } from './docs-md.ts';
export { renderLlmsTxt } from './llms-txt.ts';
