// Preloaded with `node -r`: on exit, prints the npm packages the process loaded, one per line.
process.on('exit', () => {
  const names = new Set();
  for (const file of Object.keys(require.cache)) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(
      file.slice(file.lastIndexOf('node_modules/')),
    );
    if (match) names.add(match[1]);
  }
  process.stderr.write(`loaded: ${[...names].sort().join(' ')}\n`);
});
