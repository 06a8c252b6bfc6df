// The types of desktop-sound.cjs for the TypeScript tests (which do not compile JavaScript).
export declare const SOUND_ONSET: string;
export declare const TONE_PEAK: string;
export declare function playTone(hz: number): string;
export declare function writeTone(hz: number, seconds: number): string;
export declare const STOP_SOUND: string;
export declare function startSound(options?: Record<string, unknown>): string;
