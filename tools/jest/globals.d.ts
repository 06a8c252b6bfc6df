// What the engine sequencer and the global setups leave each other on globalThis (they run in
// one process: the sequencer after sorting, the setups before the tests, the teardowns after).
declare global {
  var __engineTestsSelected: boolean | undefined;
  var __workspaceImagesSelected: boolean | undefined;
  var __workspaceImagesBuilt: Promise<void> | undefined;
  var __stopTestEngine: (() => Promise<void>) | undefined;
  var __stopTestPostgres: (() => Promise<void>) | undefined;
}

export {};
