// What counts as breaking: every kind of change the comparison reports, and in which direction it
// breaks a client. A request schema breaks clients when it accepts less than before (they send what
// used to be valid); a response schema breaks clients when it may carry more than before (they read
// what they did not expect). A schema used both ways is judged by both.
import type { Direction } from './spec-operations.js';

export type Severity = 'breaking' | 'non-breaking' | 'info';

type Rule = {
  /** Where it breaks clients: always, never, or in these directions of use. */
  breaks: 'always' | 'never' | readonly Direction[];
  /** Prose changes (descriptions, summaries) are reported with their old and new text, never breaking. */
  info?: true;
  title: string;
};

const REQUEST = ['request'] as const;
const RESPONSE = ['response'] as const;

export const RULES = {
  // operations
  'operation-removed': { breaks: 'always', title: 'operation removed' },
  'operation-added': { breaks: 'never', title: 'operation added' },
  'operation-id-changed': { breaks: 'always', title: 'operationId changed (the SDK names its types and calls after it)' },
  'sdk-name-changed': { breaks: 'always', title: 'SDK name (x-sdk-name) changed or removed: SDK calls by the old name break' },
  'sdk-name-declared': { breaks: 'never', title: 'SDK name (x-sdk-name) declared where the operation had none' },
  'operation-deprecated': { breaks: 'never', title: 'operation deprecated' },
  'security-added': { breaks: 'always', title: 'a bearer token is now required' },
  'security-removed': { breaks: 'never', title: 'a bearer token is no longer required' },
  'security-changed': { breaks: 'always', title: 'security scheme changed' },
  // declared access (`x-access: {scope, minimum, rule?}`)
  'access-stricter': { breaks: 'always', title: 'access rule stricter' },
  'access-looser': { breaks: 'never', title: 'access rule looser' },
  'access-changed': { breaks: 'always', title: 'access rule changed (scope or named rule: not comparable)' },
  'access-declared': { breaks: 'never', title: 'access rule declared' },
  'access-undeclared': { breaks: 'always', title: 'access rule no longer declared' },
  // parameters
  'parameter-removed': { breaks: 'always', title: 'parameter removed' },
  'parameter-added': { breaks: 'never', title: 'optional parameter added' },
  'required-parameter-added': { breaks: 'always', title: 'required parameter added' },
  'parameter-made-required': { breaks: 'always', title: 'parameter made required' },
  'parameter-made-optional': { breaks: 'never', title: 'parameter made optional' },
  'parameter-style-changed': { breaks: 'always', title: 'parameter serialization (style/explode) changed' },
  // request bodies
  'request-body-added': { breaks: 'never', title: 'optional request body added' },
  'required-request-body-added': { breaks: 'always', title: 'required request body added' },
  'request-body-removed': { breaks: 'always', title: 'request body removed' },
  'request-body-made-required': { breaks: 'always', title: 'request body made required' },
  'request-body-made-optional': { breaks: 'never', title: 'request body made optional' },
  // responses
  'success-response-removed': { breaks: 'always', title: 'success status removed (clients expect it)' },
  'success-response-added': { breaks: 'always', title: 'success status added (clients do not expect it)' },
  'error-response-removed': { breaks: 'never', title: 'error response no longer documented' },
  'error-response-added': { breaks: 'never', title: 'error response documented' },
  'media-type-removed': { breaks: 'always', title: 'media type removed' },
  'media-type-added': { breaks: 'never', title: 'media type added' },
  'response-header-removed': { breaks: RESPONSE, title: 'response header removed' },
  'response-header-added': { breaks: 'never', title: 'response header added' },
  // schemas: fields
  'property-removed': { breaks: 'always', title: 'field removed' },
  'property-added': { breaks: 'never', title: 'optional field added' },
  'required-property-added': { breaks: REQUEST, title: 'required field added' },
  'property-made-required': { breaks: REQUEST, title: 'field made required' },
  'property-made-optional': { breaks: RESPONSE, title: 'field made optional' },
  'additional-properties-narrowed': { breaks: REQUEST, title: 'unknown fields no longer accepted' },
  'additional-properties-widened': { breaks: 'never', title: 'unknown fields now accepted' },
  // schemas: values
  'type-narrowed': { breaks: REQUEST, title: 'type narrowed' },
  'type-widened': { breaks: RESPONSE, title: 'type widened' },
  'type-changed': { breaks: 'always', title: 'type changed' },
  'nullable-added': { breaks: RESPONSE, title: 'made nullable' },
  'nullable-removed': { breaks: REQUEST, title: 'no longer nullable' },
  'enum-value-removed': { breaks: 'always', title: 'enum value removed' },
  'enum-value-added': { breaks: RESPONSE, title: 'enum value added (clients may not handle it)' },
  'enum-added': { breaks: REQUEST, title: 'values restricted to an enum' },
  'enum-removed': { breaks: RESPONSE, title: 'enum restriction removed' },
  'const-changed': { breaks: 'always', title: 'constant value changed' },
  'limit-narrowed': { breaks: REQUEST, title: 'limit narrowed' },
  'limit-widened': { breaks: RESPONSE, title: 'limit widened' },
  'pattern-added': { breaks: REQUEST, title: 'pattern added' },
  'pattern-changed': { breaks: 'always', title: 'pattern changed' },
  'pattern-removed': { breaks: RESPONSE, title: 'pattern removed' },
  'format-added': { breaks: REQUEST, title: 'format added' },
  'format-changed': { breaks: 'always', title: 'format changed' },
  'format-removed': { breaks: RESPONSE, title: 'format removed' },
  'default-changed': { breaks: REQUEST, title: 'default changed (clients that omit the field get another value)' },
  'variant-removed': { breaks: REQUEST, title: 'oneOf/anyOf variant removed' },
  'variant-added': { breaks: RESPONSE, title: 'oneOf/anyOf variant added' },
  'all-of-added': { breaks: REQUEST, title: 'allOf member added' },
  'all-of-removed': { breaks: RESPONSE, title: 'allOf member removed' },
  'discriminator-changed': { breaks: 'always', title: 'discriminator property changed' },
  'schema-ref-changed': { breaks: 'never', title: 'now refers to another schema (differences listed separately)' },
  'schema-deprecated': { breaks: 'never', title: 'deprecated' },
  // prose and metadata
  'description-changed': { breaks: 'never', info: true, title: 'description changed' },
  'summary-changed': { breaks: 'never', info: true, title: 'summary changed' },
  'title-changed': { breaks: 'never', info: true, title: 'title changed' },
  'version-changed': { breaks: 'never', info: true, title: 'info.version changed' },
} as const satisfies Record<string, Rule>;

export type RuleId = keyof typeof RULES;

/** The severity of a change of this kind in a place used in these directions. */
export function severityOf(rule: RuleId, directions: Iterable<Direction>): Severity {
  const definition: Rule = RULES[rule];
  if (definition.info) return 'info';
  if (definition.breaks === 'always') return 'breaking';
  if (definition.breaks === 'never') return 'non-breaking';
  const breaksIn = definition.breaks;
  for (const direction of directions) if (breaksIn.includes(direction)) return 'breaking';
  return 'non-breaking';
}

/** Standing needed by an `x-access` minimum, loosest first. */
export const ACCESS_MINIMUMS = ['authenticated', 'guest', 'member', 'read', 'comment', 'edit', 'review', 'create', 'admin'] as const;
