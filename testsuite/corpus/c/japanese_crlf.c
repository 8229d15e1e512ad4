/*
 * 日本語のコメントを含む XMP プログラム（改行コードは CRLF）。
 * ブロック分散した配列の総和を求め、逐次計算の結果と比較する。
 *
 * xmpc-test: np=4
 */
#include <stdio.h>
#include <xmp.h>

#define N 1000   /* 配列の大きさ */

#pragma xmp nodes p(4)          /* ノード集合：4 ノード */
#pragma xmp template t(0:N-1)   // テンプレート（添字空間）
#pragma xmp distribute t(block) onto p

int a[N];                       /* 分散配列 */
#pragma xmp align a[i] with t(i)

int main(void)
{
    int i;
    long s = 0;   // 部分和 → 総和

    /* 初期化：各ノードは自分の担当部分だけを書く */
#pragma xmp loop on t(i)
    for (i = 0; i < N; i++)
        a[i] = i + 1;

    /* 総和（リダクション） */
#pragma xmp loop on t(i) reduction(+:s)
    for (i = 0; i < N; i++)
        s += a[i];

    if (xmp_node_num() == 1) {
        /* 期待値は N(N+1)/2 */
        if (s == (long)N * (N + 1) / 2)
            printf("PASS\n");
        else
            printf("ERROR: 総和 = %ld\n", s);
    }
    return s == (long)N * (N + 1) / 2 ? 0 : 1;
}
