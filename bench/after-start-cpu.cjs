// Loaded with `node --require` by bench/mcp-bench.ts: runs once Node has started, and at exit writes to
// stderr the CPU time the process used from then on — what the program itself costs, apart from starting
// Node, which a loaded machine inflates most.
const start = process.cpuUsage();
process.on('exit', () => {
  const used = process.cpuUsage(start);
  process.stderr.write(`__AFTER_START_CPU__${((used.user + used.system) / 1000).toFixed(1)}\n`);
});
