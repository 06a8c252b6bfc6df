// The types of desktop-clock.cjs for the TypeScript tests (which do not compile JavaScript).
export declare const START_CLOCK: string;
export declare function clockSecond(
  pixels: ArrayLike<number>,
  width: number,
  height: number,
): number | null;
export declare function SEEK_AND_READ_CLOCK(targetMs: number, limitMs: number): string;
