export default async function teardown(): Promise<void> {
  await (globalThis as { __stopImageEngine?: () => Promise<void> }).__stopImageEngine?.();
}
