/** Human input: a node asks, the run pauses; the answer (from any process) resumes it. */
import { REQUEST_INPUT_FUNCTION_NAME, START, Workflow, type NodeContext } from '@adk/workflow';

import { runTurn } from './run-turn';

const quote = (item: string) => ({ item, price: 120 });
function approve(offer: { item: string; price: number }, ctx: NodeContext) {
  // Paused here; by default the answer becomes this node's output.
  ctx.requestInput({ id: 'approve-quote', message: `Buy ${offer.item} for ${offer.price}?` });
}
const order = (answer: { approved: boolean }) => (answer.approved ? 'Ordered.' : 'Cancelled.');

const purchase = new Workflow({ name: 'purchase', edges: [[START, quote, approve, order]] });

console.log('> a desk lamp');
await runTurn(purchase, 'a desk lamp');
console.log('> (the user approves)');
await runTurn(purchase, {
  role: 'user',
  parts: [
    {
      functionResponse: {
        id: 'approve-quote',
        name: REQUEST_INPUT_FUNCTION_NAME,
        response: { approved: true },
      },
    },
  ],
});
