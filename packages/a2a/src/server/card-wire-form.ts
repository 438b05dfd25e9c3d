import { AgentCard } from '@a2a-js/sdk';

/**
 * The card, serialised by `JSON.stringify` in the specification's JSON form.
 *
 * The SDK's card route writes the 1.0 card with `JSON.stringify` of the object it is given, the
 * SDK's internal form, where a security scheme is a oneof (`{ scheme: { $case, value } }`); its
 * clients read the JSON form (`{ httpAuthSecurityScheme: {...} }`) and found no scheme in it.
 * The 0.3 route translates the same object field by field, so the object stays in the internal
 * form and only its `toJSON` (not enumerable) gives the schemes in the SDK's own JSON encoding.
 */
export function withWireJson(card: AgentCard): AgentCard {
  Object.defineProperty(card, 'toJSON', {
    enumerable: false,
    value: () => {
      const wire = AgentCard.toJSON(card) as Record<string, unknown>;
      // Only the schemes differ: every other field's internal form is already its JSON form.
      return { ...card, securitySchemes: wire.securitySchemes ?? {} };
    },
  });
  return card;
}
