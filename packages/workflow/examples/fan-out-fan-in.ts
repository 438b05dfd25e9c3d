/** Fan-out / fan-in: two lookups run at once; a join waits for both and gets them by name. */
import { JoinNode, START, Workflow } from '@adk/workflow';

import { runTurn } from './run-turn';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function flights(city: string) {
  await sleep(100);
  return [`AF123 to ${city}`];
}
async function hotels(city: string) {
  await sleep(100);
  return [`Hotel du Nord, ${city}`];
}
const both = new JoinNode({ name: 'both' });
const plan = (found: { flights: string[]; hotels: string[] }) =>
  `Fly ${found.flights[0]}, stay at ${found.hotels[0]}.`;

const trip = new Workflow({ name: 'trip', edges: [[START, [flights, hotels], both, plan]] });

const started = performance.now();
await runTurn(trip, 'Paris');
console.log(`  took ${Math.round(performance.now() - started)} ms (the lookups ran concurrently)`);
