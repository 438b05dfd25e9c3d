/** Routing: a classifier sets a route; the matching edge runs (an LlmAgent on one side). */
import { LlmAgent } from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import { DEFAULT_ROUTE, START, Workflow, type NodeContext } from '@adk/workflow';

import { runTurn } from './run-turn';

const billing = new LlmAgent({
  name: 'billing',
  model: new FakeModel({ responses: ['Your refund for order 42 is on its way.'] }),
  instruction: 'You handle refunds.',
});
function classify(text: string, ctx: NodeContext) {
  ctx.route = /refund|invoice/i.test(text) ? 'billing' : 'other';
  return text;
}
const faq = (text: string) => `See our FAQ about "${text}".`;

const support = new Workflow({
  name: 'support',
  edges: [[START, classify, { billing, [DEFAULT_ROUTE]: faq }]],
});

console.log('> I want a refund for order 42');
await runTurn(support, 'I want a refund for order 42');
