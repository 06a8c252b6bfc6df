/**
 * `compute` remembered for up to `max` distinct arguments (all forgotten at once past that, so
 * memory stays bounded whatever clients send). Only for arguments that are not secret.
 */
export function memo(compute: (argument: string) => string, max = 10_000) {
  const known = new Map<string, string>();
  return (argument: string): string => {
    let value = known.get(argument);
    if (value === undefined) {
      if (known.size >= max) known.clear();
      value = compute(argument);
      known.set(argument, value);
    }
    return value;
  };
}
