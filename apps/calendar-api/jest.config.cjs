// Waits in these tests end as soon as what they wait for happens, with limits of tens of seconds
// so that a loaded machine never fails them; a test may hold a few such waits.
module.exports = { ...require('../../jest.preset.cjs'), testTimeout: 120_000 };
