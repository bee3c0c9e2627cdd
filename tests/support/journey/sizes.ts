/** The two sizes every screen is checked at: a landscape kiosk and a phone. */
export const KIOSK = { width: 1920, height: 1080 } as const;
export const PHONE = { width: 390, height: 844 } as const;
