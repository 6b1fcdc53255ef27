#if defined(__linux__) && (defined(__aarch64__))
/*
 * Copyright 2018-2025 Yury Gribov
 *
 * The MIT License (MIT)
 *
 * Use of this source code is governed by MIT license that can be
 * found in the LICENSE.txt file.
 */

#define lr x30
#define ip0 x16

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

  // Slow path which calls dlsym, taken only on first call.
  // Registers are saved according to "Procedure Call Standard for the Arm® 64-bit Architecture".
  // For DWARF directives, read https://www.imperialviolet.org/2017/01/18/cfi.html.

  // Stack is aligned at 16 bytes

#define PUSH_PAIR(reg1, reg2) stp reg1, reg2, [sp, #-16]!; .cfi_adjust_cfa_offset 16; .cfi_rel_offset reg1, 0; .cfi_rel_offset reg2, 8
#define POP_PAIR(reg1, reg2) ldp reg1, reg2, [sp], #16; .cfi_adjust_cfa_offset -16; .cfi_restore reg2; .cfi_restore reg1

#define PUSH_WIDE_PAIR(reg1, reg2) stp reg1, reg2, [sp, #-32]!; .cfi_adjust_cfa_offset 32; .cfi_rel_offset reg1, 0; .cfi_rel_offset reg2, 16
#define POP_WIDE_PAIR(reg1, reg2) ldp reg1, reg2, [sp], #32; .cfi_adjust_cfa_offset -32; .cfi_restore reg2; .cfi_restore reg1

  // Save only arguments (and lr)
  PUSH_PAIR(x0, x1)
  PUSH_PAIR(x2, x3)
  PUSH_PAIR(x4, x5)
  PUSH_PAIR(x6, x7)
  PUSH_PAIR(x8, lr)

  ldr x0, [sp, #80]  // 16*5

  PUSH_WIDE_PAIR(q0, q1)
  PUSH_WIDE_PAIR(q2, q3)
  PUSH_WIDE_PAIR(q4, q5)
  PUSH_WIDE_PAIR(q6, q7)

  // Stack is aligned at 16 bytes

  bl _libgdk_pixbuf_2_0_so_0_tramp_resolve
  mov ip0, x0

  // TODO: pop pc?

  POP_WIDE_PAIR(q6, q7)
  POP_WIDE_PAIR(q4, q5)
  POP_WIDE_PAIR(q2, q3)
  POP_WIDE_PAIR(q0, q1)

  POP_PAIR(x8, lr)
  POP_PAIR(x6, x7)
  POP_PAIR(x4, x5)
  POP_PAIR(x2, x3)
  POP_PAIR(x0, x1)

  br lr

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

1:
  // Load address
  // TODO: can we do this faster on newer ARMs?
  adrp ip0, _libgdk_pixbuf_2_0_so_0_tramp_table+0
  ldr ip0, [ip0, #:lo12:_libgdk_pixbuf_2_0_so_0_tramp_table+0]
 
  cbz ip0, 2f

  // Fast path
  br ip0

2:
  // Slow path
  mov ip0, 0 & 0xffff
#if 0 > 0xffff
  movk ip0, 0 >> 16, lsl #16
#endif
  stp ip0, lr, [sp, #-16]!; .cfi_adjust_cfa_offset 16; .cfi_rel_offset lr, 8
  bl _libgdk_pixbuf_2_0_so_0_save_regs_and_resolve
  ldp xzr, lr, [sp], #16; .cfi_adjust_cfa_offset -16; .cfi_restore lr
  br ip0
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

1:
  // Load address
  // TODO: can we do this faster on newer ARMs?
  adrp ip0, _libgdk_pixbuf_2_0_so_0_tramp_table+8
  ldr ip0, [ip0, #:lo12:_libgdk_pixbuf_2_0_so_0_tramp_table+8]
 
  cbz ip0, 2f

  // Fast path
  br ip0

2:
  // Slow path
  mov ip0, 1 & 0xffff
#if 1 > 0xffff
  movk ip0, 1 >> 16, lsl #16
#endif
  stp ip0, lr, [sp, #-16]!; .cfi_adjust_cfa_offset 16; .cfi_rel_offset lr, 8
  bl _libgdk_pixbuf_2_0_so_0_save_regs_and_resolve
  ldp xzr, lr, [sp], #16; .cfi_adjust_cfa_offset -16; .cfi_restore lr
  br ip0
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

1:
  // Load address
  // TODO: can we do this faster on newer ARMs?
  adrp ip0, _libgdk_pixbuf_2_0_so_0_tramp_table+16
  ldr ip0, [ip0, #:lo12:_libgdk_pixbuf_2_0_so_0_tramp_table+16]
 
  cbz ip0, 2f

  // Fast path
  br ip0

2:
  // Slow path
  mov ip0, 2 & 0xffff
#if 2 > 0xffff
  movk ip0, 2 >> 16, lsl #16
#endif
  stp ip0, lr, [sp, #-16]!; .cfi_adjust_cfa_offset 16; .cfi_rel_offset lr, 8
  bl _libgdk_pixbuf_2_0_so_0_save_regs_and_resolve
  ldp xzr, lr, [sp], #16; .cfi_adjust_cfa_offset -16; .cfi_restore lr
  br ip0
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

1:
  // Load address
  // TODO: can we do this faster on newer ARMs?
  adrp ip0, _libgdk_pixbuf_2_0_so_0_tramp_table+24
  ldr ip0, [ip0, #:lo12:_libgdk_pixbuf_2_0_so_0_tramp_table+24]
 
  cbz ip0, 2f

  // Fast path
  br ip0

2:
  // Slow path
  mov ip0, 3 & 0xffff
#if 3 > 0xffff
  movk ip0, 3 >> 16, lsl #16
#endif
  stp ip0, lr, [sp, #-16]!; .cfi_adjust_cfa_offset 16; .cfi_rel_offset lr, 8
  bl _libgdk_pixbuf_2_0_so_0_save_regs_and_resolve
  ldp xzr, lr, [sp], #16; .cfi_adjust_cfa_offset -16; .cfi_restore lr
  br ip0
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

1:
  // Load address
  // TODO: can we do this faster on newer ARMs?
  adrp ip0, _libgdk_pixbuf_2_0_so_0_tramp_table+32
  ldr ip0, [ip0, #:lo12:_libgdk_pixbuf_2_0_so_0_tramp_table+32]
 
  cbz ip0, 2f

  // Fast path
  br ip0

2:
  // Slow path
  mov ip0, 4 & 0xffff
#if 4 > 0xffff
  movk ip0, 4 >> 16, lsl #16
#endif
  stp ip0, lr, [sp, #-16]!; .cfi_adjust_cfa_offset 16; .cfi_rel_offset lr, 8
  bl _libgdk_pixbuf_2_0_so_0_save_regs_and_resolve
  ldp xzr, lr, [sp], #16; .cfi_adjust_cfa_offset -16; .cfi_restore lr
  br ip0
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

1:
  // Load address
  // TODO: can we do this faster on newer ARMs?
  adrp ip0, _libgdk_pixbuf_2_0_so_0_tramp_table+40
  ldr ip0, [ip0, #:lo12:_libgdk_pixbuf_2_0_so_0_tramp_table+40]
 
  cbz ip0, 2f

  // Fast path
  br ip0

2:
  // Slow path
  mov ip0, 5 & 0xffff
#if 5 > 0xffff
  movk ip0, 5 >> 16, lsl #16
#endif
  stp ip0, lr, [sp, #-16]!; .cfi_adjust_cfa_offset 16; .cfi_rel_offset lr, 8
  bl _libgdk_pixbuf_2_0_so_0_save_regs_and_resolve
  ldp xzr, lr, [sp], #16; .cfi_adjust_cfa_offset -16; .cfi_restore lr
  br ip0
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

1:
  // Load address
  // TODO: can we do this faster on newer ARMs?
  adrp ip0, _libgdk_pixbuf_2_0_so_0_tramp_table+48
  ldr ip0, [ip0, #:lo12:_libgdk_pixbuf_2_0_so_0_tramp_table+48]
 
  cbz ip0, 2f

  // Fast path
  br ip0

2:
  // Slow path
  mov ip0, 6 & 0xffff
#if 6 > 0xffff
  movk ip0, 6 >> 16, lsl #16
#endif
  stp ip0, lr, [sp, #-16]!; .cfi_adjust_cfa_offset 16; .cfi_rel_offset lr, 8
  bl _libgdk_pixbuf_2_0_so_0_save_regs_and_resolve
  ldp xzr, lr, [sp], #16; .cfi_adjust_cfa_offset -16; .cfi_restore lr
  br ip0
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

1:
  // Load address
  // TODO: can we do this faster on newer ARMs?
  adrp ip0, _libgdk_pixbuf_2_0_so_0_tramp_table+56
  ldr ip0, [ip0, #:lo12:_libgdk_pixbuf_2_0_so_0_tramp_table+56]
 
  cbz ip0, 2f

  // Fast path
  br ip0

2:
  // Slow path
  mov ip0, 7 & 0xffff
#if 7 > 0xffff
  movk ip0, 7 >> 16, lsl #16
#endif
  stp ip0, lr, [sp, #-16]!; .cfi_adjust_cfa_offset 16; .cfi_rel_offset lr, 8
  bl _libgdk_pixbuf_2_0_so_0_save_regs_and_resolve
  ldp xzr, lr, [sp], #16; .cfi_adjust_cfa_offset -16; .cfi_restore lr
  br ip0
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

1:
  // Load address
  // TODO: can we do this faster on newer ARMs?
  adrp ip0, _libgdk_pixbuf_2_0_so_0_tramp_table+64
  ldr ip0, [ip0, #:lo12:_libgdk_pixbuf_2_0_so_0_tramp_table+64]
 
  cbz ip0, 2f

  // Fast path
  br ip0

2:
  // Slow path
  mov ip0, 8 & 0xffff
#if 8 > 0xffff
  movk ip0, 8 >> 16, lsl #16
#endif
  stp ip0, lr, [sp, #-16]!; .cfi_adjust_cfa_offset 16; .cfi_rel_offset lr, 8
  bl _libgdk_pixbuf_2_0_so_0_save_regs_and_resolve
  ldp xzr, lr, [sp], #16; .cfi_adjust_cfa_offset -16; .cfi_restore lr
  br ip0
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

1:
  // Load address
  // TODO: can we do this faster on newer ARMs?
  adrp ip0, _libgdk_pixbuf_2_0_so_0_tramp_table+72
  ldr ip0, [ip0, #:lo12:_libgdk_pixbuf_2_0_so_0_tramp_table+72]
 
  cbz ip0, 2f

  // Fast path
  br ip0

2:
  // Slow path
  mov ip0, 9 & 0xffff
#if 9 > 0xffff
  movk ip0, 9 >> 16, lsl #16
#endif
  stp ip0, lr, [sp, #-16]!; .cfi_adjust_cfa_offset 16; .cfi_rel_offset lr, 8
  bl _libgdk_pixbuf_2_0_so_0_save_regs_and_resolve
  ldp xzr, lr, [sp], #16; .cfi_adjust_cfa_offset -16; .cfi_restore lr
  br ip0
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

1:
  // Load address
  // TODO: can we do this faster on newer ARMs?
  adrp ip0, _libgdk_pixbuf_2_0_so_0_tramp_table+80
  ldr ip0, [ip0, #:lo12:_libgdk_pixbuf_2_0_so_0_tramp_table+80]
 
  cbz ip0, 2f

  // Fast path
  br ip0

2:
  // Slow path
  mov ip0, 10 & 0xffff
#if 10 > 0xffff
  movk ip0, 10 >> 16, lsl #16
#endif
  stp ip0, lr, [sp, #-16]!; .cfi_adjust_cfa_offset 16; .cfi_rel_offset lr, 8
  bl _libgdk_pixbuf_2_0_so_0_save_regs_and_resolve
  ldp xzr, lr, [sp], #16; .cfi_adjust_cfa_offset -16; .cfi_restore lr
  br ip0
  .cfi_endproc


#endif
