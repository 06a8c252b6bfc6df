module.exports = async () => {
  await globalThis.__stopTestPostgres?.();
};
