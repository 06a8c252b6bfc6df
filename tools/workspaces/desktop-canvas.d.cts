// The types of desktop-canvas.cjs for the TypeScript tests (which do not compile JavaScript).
export declare const CANVAS_COLOURS: string;
export declare const DESKTOP_COLOURS: number;
