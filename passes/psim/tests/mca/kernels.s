	.file	"kernels.c"
	.text
.Ltext0:
	.file 0 "/work/wt/psim/passes/psim/tests/mca" "kernels.c"
	.p2align 4
	.globl	stencil
	.type	stencil, @function
stencil:
.LVL0:
.LFB0:
	.file 1 "kernels.c"
	.loc 1 4 56 view -0
	.cfi_startproc
	.loc 1 5 5 view .LVU1
	.loc 1 6 5 view .LVU2
	.loc 1 6 19 view .LVU3
	cmpl	$2, %esi
	jle	.L11
	.loc 1 4 56 is_stmt 0 view .LVU4
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset 6, -16
	movl	%edi, %r10d
	movq	%rcx, %r8
	.loc 1 6 12 view .LVU5
	movl	$1, %r11d
	.loc 1 4 56 view .LVU6
	pushq	%rbx
	.cfi_def_cfa_offset 24
	.cfi_offset 3, -24
	leal	-1(%rsi), %ebx
	.loc 1 6 19 view .LVU7
	xorl	%esi, %esi
.LVL1:
.L3:
	.loc 1 7 23 is_stmt 1 view .LVU8
	.loc 1 6 29 is_stmt 0 view .LVU9
	addl	$1, %r11d
.LVL2:
	.loc 1 7 23 view .LVU10
	cmpl	$2, %r10d
	jle	.L9
	movsd	.LC0(%rip), %xmm1
	leal	-2(%r10), %ebp
.LVL3:
	.p2align 4,,10
	.p2align 3
.L5:
	.loc 1 7 23 view .LVU11
	leal	(%rsi,%r10), %r9d
	movslq	%esi, %rsi
	leaq	(%rdx,%rsi,8), %rdi
	.loc 1 9 69 view .LVU12
	leal	(%r9,%r10), %esi
	movslq	%r9d, %rcx
	movslq	%esi, %rsi
	leaq	0(,%rcx,8), %rax
	addq	%rbp, %rcx
	leaq	(%rdx,%rsi,8), %rsi
	salq	$3, %rcx
	subq	%rax, %rdi
	subq	%rax, %rsi
.LVL4:
	.p2align 4,,10
	.p2align 3
.L4:
	.loc 1 8 13 is_stmt 1 discriminator 3 view .LVU13
	.loc 1 8 53 is_stmt 0 discriminator 3 view .LVU14
	movsd	(%rdx,%rax), %xmm0
	addsd	16(%rdx,%rax), %xmm0
	.loc 1 9 36 discriminator 3 view .LVU15
	addsd	8(%rdi,%rax), %xmm0
	.loc 1 9 57 discriminator 3 view .LVU16
	addsd	8(%rsi,%rax), %xmm0
	.loc 1 8 33 discriminator 3 view .LVU17
	mulsd	%xmm1, %xmm0
	.loc 1 8 26 discriminator 3 view .LVU18
	movsd	%xmm0, 8(%r8,%rax)
	.loc 1 7 33 is_stmt 1 discriminator 3 view .LVU19
.LVL5:
	.loc 1 7 23 discriminator 3 view .LVU20
	addq	$8, %rax
.LVL6:
	.loc 1 7 23 is_stmt 0 discriminator 3 view .LVU21
	cmpq	%rax, %rcx
	jne	.L4
	.loc 1 6 29 is_stmt 1 view .LVU22
.LVL7:
	.loc 1 6 19 view .LVU23
	movl	%r9d, %esi
	cmpl	%r11d, %ebx
	je	.L1
.LVL8:
	.loc 1 7 23 view .LVU24
	.loc 1 6 29 is_stmt 0 view .LVU25
	addl	$1, %r11d
.LVL9:
	.loc 1 6 29 view .LVU26
	jmp	.L5
.LVL10:
.L9:
	.loc 1 6 29 is_stmt 1 view .LVU27
	.loc 1 6 19 view .LVU28
	addl	%r10d, %esi
	cmpl	%r11d, %ebx
	jne	.L3
.LVL11:
.L1:
	.loc 1 10 1 is_stmt 0 view .LVU29
	popq	%rbx
	.cfi_def_cfa_offset 16
.LVL12:
	.loc 1 10 1 view .LVU30
	popq	%rbp
	.cfi_def_cfa_offset 8
	ret
.LVL13:
.L11:
	.cfi_restore 3
	.cfi_restore 6
	.loc 1 10 1 view .LVU31
	ret
	.cfi_endproc
.LFE0:
	.size	stencil, .-stencil
	.p2align 4
	.globl	dot
	.type	dot, @function
dot:
.LVL14:
.LFB1:
	.loc 1 11 53 is_stmt 1 view -0
	.cfi_startproc
	.loc 1 12 5 view .LVU33
	.loc 1 13 5 view .LVU34
	.loc 1 14 5 view .LVU35
	.loc 1 14 19 view .LVU36
	testl	%edi, %edi
	jle	.L18
	movslq	%edi, %rdi
	.loc 1 14 19 is_stmt 0 view .LVU37
	xorl	%eax, %eax
	.loc 1 12 12 view .LVU38
	pxor	%xmm1, %xmm1
	leaq	0(,%rdi,8), %rcx
.LVL15:
	.p2align 4,,10
	.p2align 3
.L17:
	.loc 1 15 9 is_stmt 1 discriminator 3 view .LVU39
	.loc 1 15 19 is_stmt 0 discriminator 3 view .LVU40
	movsd	(%rsi,%rax), %xmm0
	mulsd	(%rdx,%rax), %xmm0
	.loc 1 14 19 discriminator 3 view .LVU41
	addq	$8, %rax
.LVL16:
	.loc 1 15 11 discriminator 3 view .LVU42
	addsd	%xmm0, %xmm1
.LVL17:
	.loc 1 14 25 is_stmt 1 discriminator 3 view .LVU43
	.loc 1 14 19 discriminator 3 view .LVU44
	cmpq	%rax, %rcx
	jne	.L17
	.loc 1 17 1 is_stmt 0 view .LVU45
	movapd	%xmm1, %xmm0
	ret
.LVL18:
	.p2align 4,,10
	.p2align 3
.L18:
	.loc 1 12 12 view .LVU46
	pxor	%xmm1, %xmm1
	.loc 1 16 5 is_stmt 1 view .LVU47
	.loc 1 17 1 is_stmt 0 view .LVU48
	movapd	%xmm1, %xmm0
	ret
	.cfi_endproc
.LFE1:
	.size	dot, .-dot
	.p2align 4
	.globl	scale
	.type	scale, @function
scale:
.LFB2:
	.loc 1 19 18 is_stmt 1 view -0
	.cfi_startproc
	.loc 1 20 5 view .LVU50
	.loc 1 21 5 view .LVU51
.LVL19:
	.loc 1 21 19 view .LVU52
	.loc 1 19 18 is_stmt 0 view .LVU53
	xorl	%eax, %eax
	movsd	.LC3(%rip), %xmm1
	leaq	a(%rip), %rcx
	leaq	b(%rip), %rdx
	unpcklpd	%xmm1, %xmm1
.LVL20:
	.p2align 4,,10
	.p2align 3
.L21:
	.loc 1 22 9 is_stmt 1 discriminator 3 view .LVU54
	.loc 1 22 20 is_stmt 0 discriminator 3 view .LVU55
	movapd	(%rdx,%rax), %xmm0
	mulpd	%xmm1, %xmm0
	.loc 1 22 14 discriminator 3 view .LVU56
	movaps	%xmm0, (%rcx,%rax)
	.loc 1 21 25 is_stmt 1 discriminator 3 view .LVU57
	.loc 1 21 19 discriminator 3 view .LVU58
	addq	$16, %rax
	cmpq	$512, %rax
	jne	.L21
	.loc 1 23 1 is_stmt 0 view .LVU59
	ret
	.cfi_endproc
.LFE2:
	.size	scale, .-scale
	.globl	b
	.bss
	.align 32
	.type	b, @object
	.size	b, 512
b:
	.zero	512
	.globl	a
	.align 32
	.type	a, @object
	.size	a, 512
a:
	.zero	512
	.section	.rodata.cst8,"aM",@progbits,8
	.align 8
.LC0:
	.long	0
	.long	1070596096
	.align 8
.LC3:
	.long	0
	.long	1074266112
	.text
.Letext0:
