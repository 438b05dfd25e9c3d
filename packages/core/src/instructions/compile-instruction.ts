import type { JsonSchema } from '../models';
import { transferInstruction, type TransferTarget } from './transfer-instruction';

/** One instruction source that may depend on the session (state variables, a provider function). */
export interface InstructionText {
  /** The resolved text (templates already substituted). */
  text: string;
  /**
   * True when the text can change from one request to the next: it came from an instruction
   * provider function or contained template variables. Dynamic sections are kept out of
   * {@link CompiledInstruction.static} so that the static part can be cached by a provider.
   */
  dynamic: boolean;
}

/** Everything the system instruction of one model call is assembled from. */
export interface InstructionSources {
  /** Name of the agent the request is for. */
  agentName: string;
  /** The agent's description, part of its identity. */
  description?: string;
  /** The root agent's global instruction, shared by the whole tree. */
  globalInstruction?: InstructionText;
  /** The agent's own instruction. */
  instruction?: InstructionText;
  /** JSON Schema the final answer must follow (from `outputSchema`). */
  outputSchema?: JsonSchema;
  /**
   * The output section's text when it is not the schema note: an agent that gives its final
   * answer through `set_model_response` is asked to call that tool instead.
   */
  outputInstruction?: string;
  /** Agents this one may transfer to. */
  transferTargets?: readonly TransferTarget[];
  /** Extra blocks appended last (instructions contributed by tools), each static. */
  additions?: readonly string[];
}

/** Kinds of section of a compiled instruction, in their documented order. */
export type InstructionSectionKind =
  'global' | 'identity' | 'instruction' | 'output-schema' | 'transfer' | 'addition';

/** One non-empty block of a compiled instruction. */
export interface InstructionSection {
  kind: InstructionSectionKind;
  text: string;
  dynamic: boolean;
}

/** The system instruction of one model call. */
export interface CompiledInstruction {
  /**
   * What the model receives: the static sections, then the dynamic ones, each in the documented
   * order, joined by a blank line. `static` is therefore always a prefix of `text`.
   */
  text: string;
  /** The sections that do not depend on the session, in order (cacheable, a prefix of `text`). */
  static: string;
  /** The sections that may change between requests, in order. */
  dynamic: string;
  /** The non-empty sections, in order. */
  sections: InstructionSection[];
}

/** The identity line of an agent: `You are <name>.` followed by its description. */
export function identityInstruction(agentName: string, description?: string): string {
  const about = description?.trim();
  return about ? `You are ${agentName}. ${about}` : `You are ${agentName}.`;
}

/** The note asking for JSON output that follows `schema`. */
export function outputSchemaInstruction(schema: JsonSchema): string {
  return `Reply with valid JSON matching this schema: ${JSON.stringify(schema)}`;
}

const SEPARATOR = '\n\n';

/**
 * Assemble a system instruction from its sources, always in this order (empty parts skipped,
 * blocks separated by a blank line):
 *
 * 1. the root's **global instruction**;
 * 2. the agent's **identity**: `You are <name>. <description>`;
 * 3. the agent's own **instruction**;
 * 4. the **output schema** note, when the agent has an `outputSchema`;
 * 5. the **transfer** block listing the agents it may hand over to;
 * 6. **additions** contributed by tools.
 *
 * Sections that may change between requests (instructions given as functions or with template
 * variables) are moved after all the others, keeping their relative order, so that the static
 * sections (identity, output schema, transfer, additions, and instructions given as plain strings)
 * form a prefix of `text` that a state change never alters: the part a provider can cache. The
 * result also gives the static and dynamic parts separately.
 *
 * @example
 * ```ts
 * const { text } = compileInstruction({
 *   agentName: 'router',
 *   instruction: { text: 'Route requests to the right specialist.', dynamic: false },
 *   transferTargets: [{ name: 'weather', description: 'Handles weather', relation: 'sub-agent' }],
 * });
 * ```
 */
export function compileInstruction(sources: InstructionSources): CompiledInstruction {
  const candidates: InstructionSection[] = [
    {
      kind: 'global',
      text: sources.globalInstruction?.text ?? '',
      dynamic: sources.globalInstruction?.dynamic ?? false,
    },
    {
      kind: 'identity',
      text: identityInstruction(sources.agentName, sources.description),
      dynamic: false,
    },
    {
      kind: 'instruction',
      text: sources.instruction?.text ?? '',
      dynamic: sources.instruction?.dynamic ?? false,
    },
    {
      kind: 'output-schema',
      text:
        sources.outputInstruction ??
        (sources.outputSchema ? outputSchemaInstruction(sources.outputSchema) : ''),
      dynamic: false,
    },
    { kind: 'transfer', text: transferInstruction(sources.transferTargets ?? []), dynamic: false },
    ...(sources.additions ?? []).map((text): InstructionSection => ({
      kind: 'addition',
      text,
      dynamic: false,
    })),
  ];
  const sections = candidates
    .map((section) => ({ ...section, text: section.text.trim() }))
    .filter((section) => section.text !== '');
  const join = (list: InstructionSection[]): string =>
    list.map((section) => section.text).join(SEPARATOR);
  const staticText = join(sections.filter((section) => !section.dynamic));
  const dynamicText = join(sections.filter((section) => section.dynamic));
  return {
    text:
      staticText && dynamicText
        ? `${staticText}${SEPARATOR}${dynamicText}`
        : staticText || dynamicText,
    static: staticText,
    dynamic: dynamicText,
    sections,
  };
}
