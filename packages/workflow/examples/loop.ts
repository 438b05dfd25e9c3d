/** A loop with an exit route: refine a draft until a check passes (at most 5 passes). */
import { START, Workflow, type NodeContext } from '@adk/workflow';

import { runTurn } from './run-turn';

const draft = (topic: string) => ({ text: `A note on ${topic}.`, pass: 0 });
function refine(note: { text: string; pass: number }, ctx: NodeContext) {
  const next = { text: `${note.text} More detail.`, pass: note.pass + 1 };
  ctx.route = next.text.length > 60 || next.pass >= 5 ? 'done' : 'again';
  return next;
}
const publish = (note: { text: string }) => note.text;

const writer = new Workflow({
  name: 'writer',
  // The cycle refine -> refine goes through a routed edge; an unrouted cycle is refused.
  edges: [
    [START, draft, refine],
    [refine, { again: refine, done: publish }],
  ],
});

await runTurn(writer, 'workflows');
