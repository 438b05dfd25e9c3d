const dir = process.env.T!;
const { createAdkTsHarness } = await import(`${dir}/packages/bench/src/frameworks/adk-ts.ts`);
const h = await createAdkTsHarness();
const conc = process.env.MODE === 'concurrent';
async function batch(tag: string, n: number) {
  if (conc) {
    const ids = Array.from({ length: n / 5 }, (_, i) => `${tag}-${i}`);
    for (const id of ids) await h.createSession('u', id);
    await Promise.all(ids.map(async (id) => { for (let t = 0; t < 5; t++) await h.runTurn('u', id, `Turn ${t}: weather?`); }));
  } else {
    for (let i = 0; i < n; i++) { await h.createSession('u', `${tag}-${i}`); await h.runTurn('u', `${tag}-${i}`, 'What is the weather in Paris?'); }
  }
}
await batch('warm', 5000);
console.log('MARK');
await batch('m', 20000);
console.log('END');
