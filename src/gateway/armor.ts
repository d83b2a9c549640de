// Guard rails on every operation, before execution: depth, aliases, tokens, directives. Cost is
// priced after the variables are applied (query-cost.ts), so armor's literal-only cost rule is off.
// Limits sit well above what the persisted operations (the .graphql files of rest/routes) and
// GraphiQL's introspection need, and far below what an alias bomb or a deeply nested query asks for.
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';

type GraphQLArmorConfig = NonNullable<Parameters<typeof EnvelopArmorPlugin>[0]>;

export const ARMOR_LIMITS = {
  maxDepth: 12,
  maxAliases: 20,
  maxTokens: 4_000,
  maxDirectives: 30,
} as const;

export function armorConfig(): GraphQLArmorConfig {
  return {
    maxDepth: { n: ARMOR_LIMITS.maxDepth, ignoreIntrospection: true },
    costLimit: { enabled: false },
    maxAliases: { n: ARMOR_LIMITS.maxAliases },
    maxTokens: { n: ARMOR_LIMITS.maxTokens },
    maxDirectives: { n: ARMOR_LIMITS.maxDirectives },
    // The schema is public (introspection answers anyone, schema/schema.graphql is published), so
    // "Did you mean ...?" hints reveal nothing more and are kept in every environment.
    blockFieldSuggestion: { enabled: false },
  };
}

export const armorPlugin = () => EnvelopArmorPlugin(armorConfig());
