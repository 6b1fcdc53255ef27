#if defined(__linux__) && (defined(__x86_64__))
/*
 * Copyright 2018-2025 Yury Gribov
 *
 * The MIT License (MIT)
 *
 * Use of this source code is governed by MIT license that can be
 * found in the LICENSE.txt file.
 */

  .section .note.GNU-stack,"",@progbits

  .data

  .globl _libgdk_pixbuf_2_0_so_0_tramp_table
  .hidden _libgdk_pixbuf_2_0_so_0_tramp_table
  .align 8
_libgdk_pixbuf_2_0_so_0_tramp_table:
  .zero 96

  .text

  .globl _libgdk_pixbuf_2_0_so_0_tramp_resolve
  .hidden _libgdk_pixbuf_2_0_so_0_tramp_resolve

  .globl _libgdk_pixbuf_2_0_so_0_save_regs_and_resolve
  .hidden _libgdk_pixbuf_2_0_so_0_save_regs_and_resolve
  .type _libgdk_pixbuf_2_0_so_0_save_regs_and_resolve, %function
_libgdk_pixbuf_2_0_so_0_save_regs_and_resolve:
  .cfi_startproc

#define PUSH_REG(reg) pushq %reg ; .cfi_adjust_cfa_offset 8; .cfi_rel_offset reg, 0
#define POP_REG(reg) popq %reg ; .cfi_adjust_cfa_offset -8; .cfi_restore reg

#define DEC_STACK(d) subq $d, %rsp; .cfi_adjust_cfa_offset d
#define INC_STACK(d) addq $d, %rsp; .cfi_adjust_cfa_offset -d

#define PUSH_MMX_REG(reg) DEC_STACK(8); movq %reg, (%rsp); .cfi_rel_offset reg, 0
#define POP_MMX_REG(reg) movq (%rsp), %reg; .cfi_restore reg; INC_STACK(8)

#define PUSH_XMM_REG(reg) DEC_STACK(16); movdqa %reg, (%rsp); .cfi_rel_offset reg, 0
#define POP_XMM_REG(reg) movdqa (%rsp), %reg; .cfi_restore reg; INC_STACK(16)

// TODO: cfi_offset/cfi_restore
#define PUSH_YMM_REG(reg) DEC_STACK(32); vmovdqu %reg, (%rsp)
#define POP_YMM_REG(reg) vmovdqu (%rsp), %reg; INC_STACK(32)

// TODO: cfi_offset/cfi_restore
#define PUSH_ZMM_REG(reg) DEC_STACK(64); vmovdqu32 %reg, (%rsp)
#define POP_ZMM_REG(reg) vmovdqu32 (%rsp), %reg; INC_STACK(64)

  // Slow path which calls dlsym, taken only on first call.
  // All registers are stored to handle arbitrary calling conventions
  // (except x87 FPU registers which do not have to be preserved).
  // For Dwarf directives, read https://www.imperialviolet.org/2017/01/18/cfi.html.

  .cfi_def_cfa_offset 8  // Return address

  PUSH_REG(rdi)  // 16
  mov 0x10(%rsp), %rdi
  PUSH_REG(rbx)
  PUSH_REG(rbx)  // 16
  PUSH_REG(rcx)
  PUSH_REG(rdx)  // 16
  PUSH_REG(rbp)
  PUSH_REG(rsi)  // 16
  PUSH_REG(r8)
  PUSH_REG(r9)  // 16
  PUSH_REG(r10)
  PUSH_REG(r11)  // 16
  PUSH_REG(r12)
  PUSH_REG(r13)  // 16
  PUSH_REG(r14)
  PUSH_REG(r15)  // 16

  // Maybe use cpuid instead of macro to detect current vector size...
#ifdef __AVX512F__
  PUSH_ZMM_REG(zmm0)
  PUSH_ZMM_REG(zmm1)
  PUSH_ZMM_REG(zmm2)
  PUSH_ZMM_REG(zmm3)
  PUSH_ZMM_REG(zmm4)
  PUSH_ZMM_REG(zmm5)
  PUSH_ZMM_REG(zmm6)
  PUSH_ZMM_REG(zmm7)
#elif defined __AVX__
  PUSH_YMM_REG(ymm0)
  PUSH_YMM_REG(ymm1)
  PUSH_YMM_REG(ymm2)
  PUSH_YMM_REG(ymm3)
  PUSH_YMM_REG(ymm4)
  PUSH_YMM_REG(ymm5)
  PUSH_YMM_REG(ymm6)
  PUSH_YMM_REG(ymm7)
#elif defined __SSE__
  PUSH_XMM_REG(xmm0)
  PUSH_XMM_REG(xmm1)
  PUSH_XMM_REG(xmm2)
  PUSH_XMM_REG(xmm3)
  PUSH_XMM_REG(xmm4)
  PUSH_XMM_REG(xmm5)
  PUSH_XMM_REG(xmm6)
  PUSH_XMM_REG(xmm7)
#endif

  // MMX registers are not used to pass arguments so we do not save them

  // Stack is just 8-byte aligned but callee will re-align to 16
  call _libgdk_pixbuf_2_0_so_0_tramp_resolve

#ifdef __AVX512F__
  POP_ZMM_REG(zmm7)
  POP_ZMM_REG(zmm6)
  POP_ZMM_REG(zmm5)
  POP_ZMM_REG(zmm4)
  POP_ZMM_REG(zmm3)
  POP_ZMM_REG(zmm2)
  POP_ZMM_REG(zmm1)
  POP_ZMM_REG(zmm0)  // 16
#elif defined __AVX__
  POP_YMM_REG(ymm7)
  POP_YMM_REG(ymm6)
  POP_YMM_REG(ymm5)
  POP_YMM_REG(ymm4)
  POP_YMM_REG(ymm3)
  POP_YMM_REG(ymm2)
  POP_YMM_REG(ymm1)
  POP_YMM_REG(ymm0)  // 16
#elif defined __SSE__
  POP_XMM_REG(xmm7)
  POP_XMM_REG(xmm6)
  POP_XMM_REG(xmm5)
  POP_XMM_REG(xmm4)
  POP_XMM_REG(xmm3)
  POP_XMM_REG(xmm2)
  POP_XMM_REG(xmm1)
  POP_XMM_REG(xmm0)  // 16
#endif

  POP_REG(r15)
  POP_REG(r14)  // 16
  POP_REG(r13)
  POP_REG(r12)  // 16
  POP_REG(r11)
  POP_REG(r10)  // 16
  POP_REG(r9)
  POP_REG(r8)  // 16
  POP_REG(rsi)
  POP_REG(rbp)  // 16
  POP_REG(rdx)
  POP_REG(rcx)  // 16
  POP_REG(rbx)
  POP_REG(rbx)  // 16
  POP_REG(rdi)

  ret

  .cfi_endproc

/*
 * Copyright 2018-2025 Yury Gribov
 *
 * The MIT License (MIT)
 *
 * Use of this source code is governed by MIT license that can be
 * found in the LICENSE.txt file.
 */

  .globl gdk_pixbuf_get_bits_per_sample
  .p2align 4
  .type gdk_pixbuf_get_bits_per_sample, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden gdk_pixbuf_get_bits_per_sample
#endif
gdk_pixbuf_get_bits_per_sample:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libgdk_pixbuf_2_0_so_0_tramp_table+0(%rip)
  je 2f
1:
  jmp *_libgdk_pixbuf_2_0_so_0_tramp_table+0(%rip)
2:
  pushq $0
  .cfi_adjust_cfa_offset 8
  call _libgdk_pixbuf_2_0_so_0_save_regs_and_resolve
  addq $8, %rsp
  .cfi_adjust_cfa_offset -8
  jmp *%rax
  .cfi_endproc

/*
 * Copyright 2018-2025 Yury Gribov
 *
 * The MIT License (MIT)
 *
 * Use of this source code is governed by MIT license that can be
 * found in the LICENSE.txt file.
 */

  .globl gdk_pixbuf_get_has_alpha
  .p2align 4
  .type gdk_pixbuf_get_has_alpha, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden gdk_pixbuf_get_has_alpha
#endif
gdk_pixbuf_get_has_alpha:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libgdk_pixbuf_2_0_so_0_tramp_table+8(%rip)
  je 2f
1:
  jmp *_libgdk_pixbuf_2_0_so_0_tramp_table+8(%rip)
2:
  pushq $1
  .cfi_adjust_cfa_offset 8
  call _libgdk_pixbuf_2_0_so_0_save_regs_and_resolve
  addq $8, %rsp
  .cfi_adjust_cfa_offset -8
  jmp *%rax
  .cfi_endproc

/*
 * Copyright 2018-2025 Yury Gribov
 *
 * The MIT License (MIT)
 *
 * Use of this source code is governed by MIT license that can be
 * found in the LICENSE.txt file.
 */

  .globl gdk_pixbuf_get_height
  .p2align 4
  .type gdk_pixbuf_get_height, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden gdk_pixbuf_get_height
#endif
gdk_pixbuf_get_height:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libgdk_pixbuf_2_0_so_0_tramp_table+16(%rip)
  je 2f
1:
  jmp *_libgdk_pixbuf_2_0_so_0_tramp_table+16(%rip)
2:
  pushq $2
  .cfi_adjust_cfa_offset 8
  call _libgdk_pixbuf_2_0_so_0_save_regs_and_resolve
  addq $8, %rsp
  .cfi_adjust_cfa_offset -8
  jmp *%rax
  .cfi_endproc

/*
 * Copyright 2018-2025 Yury Gribov
 *
 * The MIT License (MIT)
 *
 * Use of this source code is governed by MIT license that can be
 * found in the LICENSE.txt file.
 */

  .globl gdk_pixbuf_get_n_channels
  .p2align 4
  .type gdk_pixbuf_get_n_channels, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden gdk_pixbuf_get_n_channels
#endif
gdk_pixbuf_get_n_channels:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libgdk_pixbuf_2_0_so_0_tramp_table+24(%rip)
  je 2f
1:
  jmp *_libgdk_pixbuf_2_0_so_0_tramp_table+24(%rip)
2:
  pushq $3
  .cfi_adjust_cfa_offset 8
  call _libgdk_pixbuf_2_0_so_0_save_regs_and_resolve
  addq $8, %rsp
  .cfi_adjust_cfa_offset -8
  jmp *%rax
  .cfi_endproc

/*
 * Copyright 2018-2025 Yury Gribov
 *
 * The MIT License (MIT)
 *
 * Use of this source code is governed by MIT license that can be
 * found in the LICENSE.txt file.
 */

  .globl gdk_pixbuf_get_rowstride
  .p2align 4
  .type gdk_pixbuf_get_rowstride, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden gdk_pixbuf_get_rowstride
#endif
gdk_pixbuf_get_rowstride:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libgdk_pixbuf_2_0_so_0_tramp_table+32(%rip)
  je 2f
1:
  jmp *_libgdk_pixbuf_2_0_so_0_tramp_table+32(%rip)
2:
  pushq $4
  .cfi_adjust_cfa_offset 8
  call _libgdk_pixbuf_2_0_so_0_save_regs_and_resolve
  addq $8, %rsp
  .cfi_adjust_cfa_offset -8
  jmp *%rax
  .cfi_endproc

/*
 * Copyright 2018-2025 Yury Gribov
 *
 * The MIT License (MIT)
 *
 * Use of this source code is governed by MIT license that can be
 * found in the LICENSE.txt file.
 */

  .globl gdk_pixbuf_get_width
  .p2align 4
  .type gdk_pixbuf_get_width, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden gdk_pixbuf_get_width
#endif
gdk_pixbuf_get_width:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libgdk_pixbuf_2_0_so_0_tramp_table+40(%rip)
  je 2f
1:
  jmp *_libgdk_pixbuf_2_0_so_0_tramp_table+40(%rip)
2:
  pushq $5
  .cfi_adjust_cfa_offset 8
  call _libgdk_pixbuf_2_0_so_0_save_regs_and_resolve
  addq $8, %rsp
  .cfi_adjust_cfa_offset -8
  jmp *%rax
  .cfi_endproc

/*
 * Copyright 2018-2025 Yury Gribov
 *
 * The MIT License (MIT)
 *
 * Use of this source code is governed by MIT license that can be
 * found in the LICENSE.txt file.
 */

  .globl gdk_pixbuf_loader_close
  .p2align 4
  .type gdk_pixbuf_loader_close, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden gdk_pixbuf_loader_close
#endif
gdk_pixbuf_loader_close:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libgdk_pixbuf_2_0_so_0_tramp_table+48(%rip)
  je 2f
1:
  jmp *_libgdk_pixbuf_2_0_so_0_tramp_table+48(%rip)
2:
  pushq $6
  .cfi_adjust_cfa_offset 8
  call _libgdk_pixbuf_2_0_so_0_save_regs_and_resolve
  addq $8, %rsp
  .cfi_adjust_cfa_offset -8
  jmp *%rax
  .cfi_endproc

/*
 * Copyright 2018-2025 Yury Gribov
 *
 * The MIT License (MIT)
 *
 * Use of this source code is governed by MIT license that can be
 * found in the LICENSE.txt file.
 */

  .globl gdk_pixbuf_loader_get_pixbuf
  .p2align 4
  .type gdk_pixbuf_loader_get_pixbuf, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden gdk_pixbuf_loader_get_pixbuf
#endif
gdk_pixbuf_loader_get_pixbuf:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libgdk_pixbuf_2_0_so_0_tramp_table+56(%rip)
  je 2f
1:
  jmp *_libgdk_pixbuf_2_0_so_0_tramp_table+56(%rip)
2:
  pushq $7
  .cfi_adjust_cfa_offset 8
  call _libgdk_pixbuf_2_0_so_0_save_regs_and_resolve
  addq $8, %rsp
  .cfi_adjust_cfa_offset -8
  jmp *%rax
  .cfi_endproc

/*
 * Copyright 2018-2025 Yury Gribov
 *
 * The MIT License (MIT)
 *
 * Use of this source code is governed by MIT license that can be
 * found in the LICENSE.txt file.
 */

  .globl gdk_pixbuf_loader_new_with_type
  .p2align 4
  .type gdk_pixbuf_loader_new_with_type, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden gdk_pixbuf_loader_new_with_type
#endif
gdk_pixbuf_loader_new_with_type:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libgdk_pixbuf_2_0_so_0_tramp_table+64(%rip)
  je 2f
1:
  jmp *_libgdk_pixbuf_2_0_so_0_tramp_table+64(%rip)
2:
  pushq $8
  .cfi_adjust_cfa_offset 8
  call _libgdk_pixbuf_2_0_so_0_save_regs_and_resolve
  addq $8, %rsp
  .cfi_adjust_cfa_offset -8
  jmp *%rax
  .cfi_endproc

/*
 * Copyright 2018-2025 Yury Gribov
 *
 * The MIT License (MIT)
 *
 * Use of this source code is governed by MIT license that can be
 * found in the LICENSE.txt file.
 */

  .globl gdk_pixbuf_loader_write
  .p2align 4
  .type gdk_pixbuf_loader_write, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden gdk_pixbuf_loader_write
#endif
gdk_pixbuf_loader_write:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libgdk_pixbuf_2_0_so_0_tramp_table+72(%rip)
  je 2f
1:
  jmp *_libgdk_pixbuf_2_0_so_0_tramp_table+72(%rip)
2:
  pushq $9
  .cfi_adjust_cfa_offset 8
  call _libgdk_pixbuf_2_0_so_0_save_regs_and_resolve
  addq $8, %rsp
  .cfi_adjust_cfa_offset -8
  jmp *%rax
  .cfi_endproc

/*
 * Copyright 2018-2025 Yury Gribov
 *
 * The MIT License (MIT)
 *
 * Use of this source code is governed by MIT license that can be
 * found in the LICENSE.txt file.
 */

  .globl gdk_pixbuf_read_pixels
  .p2align 4
  .type gdk_pixbuf_read_pixels, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden gdk_pixbuf_read_pixels
#endif
gdk_pixbuf_read_pixels:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libgdk_pixbuf_2_0_so_0_tramp_table+80(%rip)
  je 2f
1:
  jmp *_libgdk_pixbuf_2_0_so_0_tramp_table+80(%rip)
2:
  pushq $10
  .cfi_adjust_cfa_offset 8
  call _libgdk_pixbuf_2_0_so_0_save_regs_and_resolve
  addq $8, %rsp
  .cfi_adjust_cfa_offset -8
  jmp *%rax
  .cfi_endproc


#endif
