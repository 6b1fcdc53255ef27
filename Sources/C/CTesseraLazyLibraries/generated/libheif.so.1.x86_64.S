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

  .globl _libheif_so_1_tramp_table
  .hidden _libheif_so_1_tramp_table
  .align 8
_libheif_so_1_tramp_table:
  .zero 312

  .text

  .globl _libheif_so_1_tramp_resolve
  .hidden _libheif_so_1_tramp_resolve

  .globl _libheif_so_1_save_regs_and_resolve
  .hidden _libheif_so_1_save_regs_and_resolve
  .type _libheif_so_1_save_regs_and_resolve, %function
_libheif_so_1_save_regs_and_resolve:
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
  call _libheif_so_1_tramp_resolve

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

  .globl heif_context_alloc
  .p2align 4
  .type heif_context_alloc, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_context_alloc
#endif
heif_context_alloc:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+0(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+0(%rip)
2:
  pushq $0
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_context_free
  .p2align 4
  .type heif_context_free, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_context_free
#endif
heif_context_free:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+8(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+8(%rip)
2:
  pushq $1
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_context_get_image_handle
  .p2align 4
  .type heif_context_get_image_handle, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_context_get_image_handle
#endif
heif_context_get_image_handle:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+16(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+16(%rip)
2:
  pushq $2
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_context_get_list_of_top_level_image_IDs
  .p2align 4
  .type heif_context_get_list_of_top_level_image_IDs, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_context_get_list_of_top_level_image_IDs
#endif
heif_context_get_list_of_top_level_image_IDs:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+24(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+24(%rip)
2:
  pushq $3
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_context_get_number_of_top_level_images
  .p2align 4
  .type heif_context_get_number_of_top_level_images, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_context_get_number_of_top_level_images
#endif
heif_context_get_number_of_top_level_images:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+32(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+32(%rip)
2:
  pushq $4
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_context_get_primary_image_ID
  .p2align 4
  .type heif_context_get_primary_image_ID, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_context_get_primary_image_ID
#endif
heif_context_get_primary_image_ID:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+40(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+40(%rip)
2:
  pushq $5
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_context_get_primary_image_handle
  .p2align 4
  .type heif_context_get_primary_image_handle, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_context_get_primary_image_handle
#endif
heif_context_get_primary_image_handle:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+48(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+48(%rip)
2:
  pushq $6
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_context_read_from_memory
  .p2align 4
  .type heif_context_read_from_memory, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_context_read_from_memory
#endif
heif_context_read_from_memory:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+56(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+56(%rip)
2:
  pushq $7
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_context_set_maximum_image_size_limit
  .p2align 4
  .type heif_context_set_maximum_image_size_limit, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_context_set_maximum_image_size_limit
#endif
heif_context_set_maximum_image_size_limit:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+64(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+64(%rip)
2:
  pushq $8
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_decode_image
  .p2align 4
  .type heif_decode_image, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_decode_image
#endif
heif_decode_image:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+72(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+72(%rip)
2:
  pushq $9
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_decoding_options_alloc
  .p2align 4
  .type heif_decoding_options_alloc, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_decoding_options_alloc
#endif
heif_decoding_options_alloc:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+80(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+80(%rip)
2:
  pushq $10
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_decoding_options_free
  .p2align 4
  .type heif_decoding_options_free, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_decoding_options_free
#endif
heif_decoding_options_free:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+88(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+88(%rip)
2:
  pushq $11
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_image_get_bits_per_pixel_range
  .p2align 4
  .type heif_image_get_bits_per_pixel_range, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_image_get_bits_per_pixel_range
#endif
heif_image_get_bits_per_pixel_range:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+96(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+96(%rip)
2:
  pushq $12
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_image_get_content_light_level
  .p2align 4
  .type heif_image_get_content_light_level, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_image_get_content_light_level
#endif
heif_image_get_content_light_level:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+104(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+104(%rip)
2:
  pushq $13
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_image_get_height
  .p2align 4
  .type heif_image_get_height, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_image_get_height
#endif
heif_image_get_height:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+112(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+112(%rip)
2:
  pushq $14
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_image_get_plane_readonly
  .p2align 4
  .type heif_image_get_plane_readonly, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_image_get_plane_readonly
#endif
heif_image_get_plane_readonly:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+120(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+120(%rip)
2:
  pushq $15
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_image_get_width
  .p2align 4
  .type heif_image_get_width, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_image_get_width
#endif
heif_image_get_width:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+128(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+128(%rip)
2:
  pushq $16
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_image_handle_free_auxiliary_types
  .p2align 4
  .type heif_image_handle_free_auxiliary_types, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_image_handle_free_auxiliary_types
#endif
heif_image_handle_free_auxiliary_types:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+136(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+136(%rip)
2:
  pushq $17
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_image_handle_get_auxiliary_image_handle
  .p2align 4
  .type heif_image_handle_get_auxiliary_image_handle, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_image_handle_get_auxiliary_image_handle
#endif
heif_image_handle_get_auxiliary_image_handle:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+144(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+144(%rip)
2:
  pushq $18
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_image_handle_get_auxiliary_type
  .p2align 4
  .type heif_image_handle_get_auxiliary_type, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_image_handle_get_auxiliary_type
#endif
heif_image_handle_get_auxiliary_type:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+152(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+152(%rip)
2:
  pushq $19
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_image_handle_get_color_profile_type
  .p2align 4
  .type heif_image_handle_get_color_profile_type, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_image_handle_get_color_profile_type
#endif
heif_image_handle_get_color_profile_type:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+160(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+160(%rip)
2:
  pushq $20
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_image_handle_get_height
  .p2align 4
  .type heif_image_handle_get_height, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_image_handle_get_height
#endif
heif_image_handle_get_height:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+168(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+168(%rip)
2:
  pushq $21
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_image_handle_get_list_of_auxiliary_image_IDs
  .p2align 4
  .type heif_image_handle_get_list_of_auxiliary_image_IDs, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_image_handle_get_list_of_auxiliary_image_IDs
#endif
heif_image_handle_get_list_of_auxiliary_image_IDs:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+176(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+176(%rip)
2:
  pushq $22
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_image_handle_get_list_of_thumbnail_IDs
  .p2align 4
  .type heif_image_handle_get_list_of_thumbnail_IDs, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_image_handle_get_list_of_thumbnail_IDs
#endif
heif_image_handle_get_list_of_thumbnail_IDs:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+184(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+184(%rip)
2:
  pushq $23
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_image_handle_get_luma_bits_per_pixel
  .p2align 4
  .type heif_image_handle_get_luma_bits_per_pixel, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_image_handle_get_luma_bits_per_pixel
#endif
heif_image_handle_get_luma_bits_per_pixel:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+192(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+192(%rip)
2:
  pushq $24
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_image_handle_get_nclx_color_profile
  .p2align 4
  .type heif_image_handle_get_nclx_color_profile, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_image_handle_get_nclx_color_profile
#endif
heif_image_handle_get_nclx_color_profile:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+200(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+200(%rip)
2:
  pushq $25
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_image_handle_get_number_of_auxiliary_images
  .p2align 4
  .type heif_image_handle_get_number_of_auxiliary_images, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_image_handle_get_number_of_auxiliary_images
#endif
heif_image_handle_get_number_of_auxiliary_images:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+208(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+208(%rip)
2:
  pushq $26
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_image_handle_get_number_of_thumbnails
  .p2align 4
  .type heif_image_handle_get_number_of_thumbnails, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_image_handle_get_number_of_thumbnails
#endif
heif_image_handle_get_number_of_thumbnails:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+216(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+216(%rip)
2:
  pushq $27
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_image_handle_get_raw_color_profile
  .p2align 4
  .type heif_image_handle_get_raw_color_profile, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_image_handle_get_raw_color_profile
#endif
heif_image_handle_get_raw_color_profile:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+224(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+224(%rip)
2:
  pushq $28
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_image_handle_get_raw_color_profile_size
  .p2align 4
  .type heif_image_handle_get_raw_color_profile_size, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_image_handle_get_raw_color_profile_size
#endif
heif_image_handle_get_raw_color_profile_size:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+232(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+232(%rip)
2:
  pushq $29
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_image_handle_get_thumbnail
  .p2align 4
  .type heif_image_handle_get_thumbnail, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_image_handle_get_thumbnail
#endif
heif_image_handle_get_thumbnail:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+240(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+240(%rip)
2:
  pushq $30
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_image_handle_get_width
  .p2align 4
  .type heif_image_handle_get_width, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_image_handle_get_width
#endif
heif_image_handle_get_width:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+248(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+248(%rip)
2:
  pushq $31
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_image_handle_release
  .p2align 4
  .type heif_image_handle_release, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_image_handle_release
#endif
heif_image_handle_release:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+256(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+256(%rip)
2:
  pushq $32
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_image_has_content_light_level
  .p2align 4
  .type heif_image_has_content_light_level, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_image_has_content_light_level
#endif
heif_image_has_content_light_level:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+264(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+264(%rip)
2:
  pushq $33
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_image_is_premultiplied_alpha
  .p2align 4
  .type heif_image_is_premultiplied_alpha, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_image_is_premultiplied_alpha
#endif
heif_image_is_premultiplied_alpha:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+272(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+272(%rip)
2:
  pushq $34
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_image_release
  .p2align 4
  .type heif_image_release, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_image_release
#endif
heif_image_release:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+280(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+280(%rip)
2:
  pushq $35
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_init
  .p2align 4
  .type heif_init, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_init
#endif
heif_init:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+288(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+288(%rip)
2:
  pushq $36
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
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

  .globl heif_nclx_color_profile_free
  .p2align 4
  .type heif_nclx_color_profile_free, %function
#ifndef IMPLIB_EXPORT_SHIMS
  .hidden heif_nclx_color_profile_free
#endif
heif_nclx_color_profile_free:
  .cfi_startproc
  .cfi_def_cfa_offset 8  // Return address
  // Intel opt. manual says to
  // "make the fall-through code following a conditional branch be the likely target for a branch with a forward target"
  // to hint static predictor.
  cmpq $0, _libheif_so_1_tramp_table+296(%rip)
  je 2f
1:
  jmp *_libheif_so_1_tramp_table+296(%rip)
2:
  pushq $37
  .cfi_adjust_cfa_offset 8
  call _libheif_so_1_save_regs_and_resolve
  addq $8, %rsp
  .cfi_adjust_cfa_offset -8
  jmp *%rax
  .cfi_endproc


#endif
