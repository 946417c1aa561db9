#include "textflag.h"

// func prefetchLines(b []byte)
// PRFM PLDL1KEEP at every 64th byte of b: a load into the first-level
// cache, to be kept.
TEXT ·prefetchLines(SB), NOSPLIT, $0-24
	MOVD b_base+0(FP), R0
	MOVD b_len+8(FP), R1
	MOVD $0, R2

loop:
	CMP  R1, R2
	BGE  done
	PRFM (R0), PLDL1KEEP
	ADD  $64, R0
	ADD  $64, R2
	B    loop

done:
	RET
