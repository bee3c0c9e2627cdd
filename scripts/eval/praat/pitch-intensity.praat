# Prints Praat's per-frame F0 (autocorrelation method, 10 ms) and intensity for one wav file,
# one line per pitch frame: "time<TAB>f0_hz<TAB>intensity_db" (f0 0 = unvoiced; intensity is
# Praat's dB SPL, i.e. samples taken as pascals). Used by scripts/eval/pitch.ts.
# Run headless: praat --run pitch-intensity.praat /path/file.wav 60 600
form Pitch and intensity
  sentence File
  positive Floor 60
  positive Ceiling 600
endform
sound = Read from file: file$
# Praat defaults except the range: 15 candidates, not very accurate, silence 0.03, voicing 0.45,
# octave cost 0.01, octave-jump cost 0.35, voiced/unvoiced cost 0.14.
pitch = To Pitch (ac): 0.01, floor, 15, "no", 0.03, 0.45, 0.01, 0.35, 0.14, ceiling
selectObject: sound
intensity = To Intensity: 100, 0.01, "yes"
selectObject: pitch
n = Get number of frames
out$ = ""
for i to n
  selectObject: pitch
  t = Get time from frame number: i
  f = Get value in frame: i, "Hertz"
  if f = undefined
    f = 0
  endif
  selectObject: intensity
  db = Get value at time: t, "cubic"
  if db = undefined
    db = -300
  endif
  out$ = out$ + fixed$(t, 4) + tab$ + fixed$(f, 3) + tab$ + fixed$(db, 3) + newline$
endfor
writeInfo: out$
