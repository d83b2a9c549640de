// Guard rails on every operation, before execution: depth, aliases, tokens, directives. Cost is
// priced after the variables are applied (query-cost.ts), so armor's literal-only cost rule is off.
// Limits sit well above what the persisted operations (schema/operations) and GraphiQL's
// introspection need, and far below what an alias bomb or a deeply nested query asks for.
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';

type GraphQLArmorConfig = NonNullable<Parameters<typeof EnvelopArmorPlugin>[0]>;

export const ARMOR_LIMITS = {
  maxDepth: 12,
  maxAliases: 20,
  maxTokens: 4_000,
  maxDirectives: 30,
} as const;

export function armorConfig({ production }: { production: boolean }): GraphQLArmorConfig {
  return {
    maxDepth: { n: ARMOR_LIMITS.maxDepth, ignoreIntrospection: true },
    costLimit: { enabled: false },
    maxAliases: { n: ARMOR_LIMITS.maxAliases },
    maxTokens: { n: ARMOR_LIMITS.maxTokens },
    maxDirectives: { n: ARMOR_LIMITS.maxDirectives },
    // "Did you mean ...?" hints map the schema for an attacker; developers have GraphiQL's docs.
    blockFieldSuggestion: { enabled: production },
  };
}

export const armorPlugin = (options: { production: boolean }) => EnvelopArmorPlugin(armorConfig(options));
