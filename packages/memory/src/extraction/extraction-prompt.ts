import type { StoredMemory } from '../semantic/stored-memory';

/** The extractor's instruction: what to remember, and the JSON answer it expects. */
export const EXTRACTION_INSTRUCTION = `You keep a long-term memory of facts about one user.
From the conversation, find short, self-contained facts about the user worth remembering in later
conversations: preferences, plans, projects, people, constraints. Compare them with the stored facts.
Answer with one JSON object and nothing else:
{"operations": [ ... ]}
where each operation is one of
{"op": "add", "text": "<a new fact>"}
{"op": "update", "id": "<stored id>", "text": "<the fact as it is now>"}
{"op": "merge", "ids": ["<stored id>", ...], "text": "<one fact replacing them>"}
{"op": "forget", "id": "<stored id>"}  (the fact is no longer true, or the user asked to forget it)
Answer {"operations": []} when there is nothing to change. Never repeat a stored fact.`;

/** The user turn: stored facts with their ids, then the conversation (its end, when long). */
export function extractionInput(
  facts: readonly StoredMemory[],
  transcript: string,
  maxChars: number,
): string {
  const stored = facts.length ? facts.map((f) => `- [${f.id}] ${f.text}`).join('\n') : '(none)';
  const conversation =
    transcript.length > maxChars ? `…${transcript.slice(-maxChars)}` : transcript;
  return `Stored facts:\n${stored}\n\nConversation:\n${conversation}`;
}
