const dir = process.env.T!;
const { createAdkTsHarness } = await import(`${dir}/packages/bench/src/frameworks/adk-ts.ts`);
const rounds = Number(process.env.ROUNDS ?? 6);
let total = 0; const t0 = process.cpuUsage(); const w0 = performance.now();
for (let r = 0; r < rounds; r++) {
  const h = await createAdkTsHarness();
  const ids = Array.from({ length: 1000 }, (_, i) => `c-${r}-${i}`);
  for (const id of ids) await h.createSession('u', id);
  await Promise.all(ids.map(async (id) => { for (let t = 0; t < 5; t++) await h.runTurn('u', id, `Turn ${t + 1}: weather?`); }));
  total += 5000; await h.close();
}
const c = process.cpuUsage(t0);
console.log(dir, 'cpu µs/turn', ((c.user + c.system) / total).toFixed(1), 'wall µs/turn', (((performance.now() - w0) * 1000) / total).toFixed(1));
