// Preloaded (`node -r`) into the process a memory bench measures: every 500 ms it writes
// process.memoryUsage() and the kernel's VmRSS/VmHWM to `$TRACKER_MEMORY_PROBE.<pid>`, so the
// bench can say what the RSS is made of (V8 heap, WASM and other external memory, the rest).
const { readFileSync, writeFileSync } = require('node:fs');

const target = process.env.TRACKER_MEMORY_PROBE;
if (target) {
  const write = () => {
    const status = readFileSync('/proc/self/status', 'utf8');
    const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    const m = process.memoryUsage();
    writeFileSync(
      `${target}.${process.pid}`,
      JSON.stringify({ ...m, vmRss: kb('VmRSS') * 1024, vmHwm: kb('VmHWM') * 1024, at: Date.now() }),
    );
  };
  write();
  setInterval(write, 500).unref();
}
