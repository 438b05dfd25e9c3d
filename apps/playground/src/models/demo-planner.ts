import type { Content, FunctionDeclaration, LlmRequest } from '@adk/core';
import { CONTINUE_TURN_TEXT, EMPTY_HISTORY_TEXT, LEADING_USER_TURN_TEXT } from '@adk/core';

/** What the offline demo model decides to do for one request. */
export type DemoPlan =
  { kind: 'call'; name: string; args: Record<string, unknown> } | { kind: 'answer'; text: string };

const CONTEXT_HEADER = 'For context:';
/** User turns the flow adds at the ends of a history; they say nothing about what the user wants. */
const ADDED_TURNS: ReadonlySet<string | undefined> = new Set([
  CONTINUE_TURN_TEXT,
  EMPTY_HISTORY_TEXT,
  LEADING_USER_TURN_TEXT,
]);
const STOPWORDS = new Set(
  'a an and are about any can do does for from get give handles how i in is it latest me my of on or please questions related show tell the to what whats with you your'.split(
    ' ',
  ),
);

/** Words that stand for a broader topic, so "Is it raining?" finds the weather tool. */
const SYNONYMS: Record<string, string> = Object.fromEntries([
  ...[
    'rain',
    'raining',
    'sunny',
    'snow',
    'temperature',
    'forecast',
    'hot',
    'cold',
    'umbrella',
    'wind',
    'windy',
  ].map((word) => [word, 'weather']),
  ...['headline', 'happening', 'story', 'stories', 'article'].map((word) => [word, 'news']),
  ...['approve', 'publication', 'release'].map((word) => [word, 'publish']),
  ...['write', 'draft', 'note', 'notes', 'memo'].map((word) => [word, 'report']),
]);

/** Lower-case words of a text, without stop words, with plurals and synonyms folded. */
function words(text: string): Set<string> {
  const out = new Set<string>();
  for (const raw of text.toLowerCase().split(/[^a-z0-9]+/)) {
    if (raw.length < 2 || STOPWORDS.has(raw)) continue;
    const word =
      raw.length > 4 && raw.endsWith('s') && !raw.endsWith('ss') ? raw.slice(0, -1) : raw;
    out.add(word);
    const topic = SYNONYMS[word] ?? SYNONYMS[raw];
    if (topic) out.add(topic);
  }
  return out;
}

function overlap(a: Set<string>, b: Set<string>): number {
  let count = 0;
  for (const word of a) if (b.has(word)) count++;
  return count;
}

/** The latest message the human wrote (relayed context from other agents skipped). */
export function latestUserText(contents: readonly Content[]): string {
  for (let index = contents.length - 1; index >= 0; index--) {
    const content = contents[index]!;
    if (content.role !== 'user' || content.parts[0]?.text === CONTEXT_HEADER) continue;
    if (content.parts.length === 1 && ADDED_TURNS.has(content.parts[0]?.text)) continue;
    const text = content.parts
      .map((part) => part.text ?? '')
      .join(' ')
      .trim();
    if (text) return text;
  }
  return '';
}

/** `- name: description` lines of the transfer block of a system instruction. */
function transferTargets(
  instruction: string,
  declaration: FunctionDeclaration,
): Array<{ name: string; about: string }> {
  const found = new Map<string, string>();
  for (const match of instruction.matchAll(
    /^- ([\w-]+)(?: \(your parent agent\))?(?:: (.*))?$/gm,
  )) {
    found.set(match[1]!, match[2] ?? '');
  }
  const property = Object.values(
    (declaration.parameters?.properties as Record<string, { enum?: unknown[] }> | undefined) ?? {},
  )[0];
  const allowed = property?.enum?.map(String);
  const names = allowed ?? [...found.keys()];
  return names.map((name) => ({ name, about: found.get(name) ?? '' }));
}

/** A place name after "in", "at" or "for" ("weather in Paris" → "Paris"). */
function placeIn(text: string): string | undefined {
  return /\b(?:in|at|for)\s+([A-Z][\w-]*(?:\s+[A-Z][\w-]*)*)/.exec(text)?.[1];
}

/** A topic after "about" or "on" ("news about space" → "space"). */
function topicIn(text: string): string | undefined {
  return /\b(?:about|on|regarding)\s+([\w\s-]+?)[?.!]*$/i.exec(text)?.[1]?.trim();
}

/** Arguments for a tool, guessed from the parameter names and the user's message. */
export function guessArguments(
  declaration: FunctionDeclaration,
  text: string,
): Record<string, unknown> {
  const properties = (declaration.parameters?.properties ?? {}) as Record<
    string,
    { type?: string; enum?: unknown[] }
  >;
  const args: Record<string, unknown> = {};
  const required = declaration.parameters?.required as string[] | undefined;
  for (const [name, schema] of Object.entries(properties)) {
    const key = name.toLowerCase();
    // Optional numbers and flags (an MCP tool's `head`, `tail`) keep the server's defaults.
    const flagLike = ['number', 'integer', 'boolean'].includes(schema.type ?? '');
    if (flagLike && required !== undefined && !required.includes(name)) continue;
    if (schema.enum && schema.enum.length > 0) args[name] = schema.enum[0];
    else if (/city|location|place/.test(key)) args[name] = placeIn(text) ?? 'Paris';
    else if (/topic|query|subject/.test(key)) args[name] = topicIn(text) ?? text;
    else if (key === 'path') args[name] = /[\w.-]+\.\w+/.exec(text)?.[0] ?? '.';
    else if (key === 'content') args[name] = text;
    else if (/title|name|filename/.test(key)) args[name] = (topicIn(text) ?? 'notes').slice(0, 40);
    else if (schema.type === 'number' || schema.type === 'integer') args[name] = 1;
    else if (schema.type === 'boolean') args[name] = true;
    else if (schema.type === undefined || schema.type === 'string') args[name] = text;
  }
  return args;
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return 'nothing';
  if (typeof value !== 'object') return String(value);
  const record = value as Record<string, unknown>;
  if (typeof record.error === 'string') return `it failed: ${record.error}`;
  if ('result' in record && Object.keys(record).length === 1) return describe(record.result);
  return Object.entries(record)
    .map(
      ([key, item]) =>
        `${key.replaceAll('_', ' ')}: ${Array.isArray(item) ? item.map(describe).join('; ') : typeof item === 'object' ? describe(item) : String(item)}`,
    )
    .join(', ');
}

/**
 * Decide what the offline demo model does: answer from the results of the tools it just called;
 * otherwise call the tool of its own whose name and description best match the user's message;
 * otherwise transfer to the agent that best matches; otherwise explain what it can do.
 */
export function planDemoResponse(request: LlmRequest): DemoPlan {
  const last = request.contents.at(-1);
  const results = (last?.parts ?? []).flatMap((part) =>
    part.functionResponse ? [part.functionResponse] : [],
  );
  if (last?.role === 'user' && results.length > 0) {
    return {
      kind: 'answer',
      text: results.map((result) => `From ${result.name}: ${describe(result.response)}.`).join(' '),
    };
  }

  const text = latestUserText(request.contents);
  const asked = words(text);
  const declarations = (request.config.tools ?? []).flatMap((group) => group.functionDeclarations);
  const transfer = declarations.find((declaration) => declaration.name === 'transfer_to_agent');

  let best: { declaration: FunctionDeclaration; score: number } | undefined;
  for (const declaration of declarations) {
    if (declaration === transfer) continue;
    const score = overlap(asked, words(`${declaration.name} ${declaration.description ?? ''}`));
    if (score > 0 && (!best || score > best.score)) best = { declaration, score };
  }
  if (best)
    return {
      kind: 'call',
      name: best.declaration.name,
      args: guessArguments(best.declaration, text),
    };

  if (transfer) {
    let target: { name: string; score: number } | undefined;
    for (const candidate of transferTargets(request.systemInstruction ?? '', transfer)) {
      const score = overlap(asked, words(`${candidate.name} ${candidate.about}`));
      if (score > 0 && (!target || score > target.score)) target = { name: candidate.name, score };
    }
    if (target) {
      const parameter =
        Object.keys(transfer.parameters?.properties ?? { agent_name: {} })[0] ?? 'agent_name';
      return { kind: 'call', name: 'transfer_to_agent', args: { [parameter]: target.name } };
    }
  }

  const abilities = declarations.filter((d) => d !== transfer).map((d) => d.name);
  return {
    kind: 'answer',
    text:
      `I am the offline demo model, so I only follow simple rules. ` +
      (abilities.length > 0 ? `I can use: ${abilities.join(', ')}. ` : '') +
      `Try "What's the weather in Paris?" or "Any news about space?".`,
  };
}
