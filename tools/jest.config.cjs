// These tests start Node processes (the CLIs, builds, Jest itself), several in one test, each of
// which can take many seconds on a loaded machine: a test's limit is generous, and a process's own
// limit (runNode, 240 s) ends one that hangs.
module.exports = { ...require('../jest.preset.cjs'), testTimeout: 300_000 };
