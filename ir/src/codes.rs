//! The one table of diagnostic codes, for every crate and both languages: one code per
//! kind of error, whether it is found in C or Fortran. `docs/diagnostics.md` lists the
//! same codes (a test compares the two).
//!
//! Ranges: XMP00xx directive syntax (front end), XMP01xx directive semantics (the XMP
//! model), XMP02xx host code, XMP03xx translation (what the printers cannot print, in
//! either language), XMP04xx Fortran-only translation limits, XMP045x Fortran
//! coarrays, XMP06xx MPIETE, XMP07xx C local view, XMP08xx skeletons and BSIM
//! directives, XMP09xx internal errors.

use crate::diag::{Diag, Label};
use crate::{FileId, Span};

macro_rules! codes {
    ($( $(#[$doc:meta])* $v:ident = $code:literal; )*) => {
        /// A diagnostic code (`XMP0102`).
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub enum Code {
            $( $(#[$doc])* $v, )*
        }
        impl Code {
            /// Every code, in table order.
            pub const ALL: &'static [Code] = &[$(Code::$v,)*];
            /// `XMP0102`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $( Code::$v => $code, )*
                }
            }
        }
    };
}

codes! {
    /// Unexpected character or unknown Fortran `.op.`.
    LexChar = "XMP0001";
    /// Unterminated string literal or comment.
    Unterminated = "XMP0002";
    /// Missing or unknown sentinel (also a warning for a look-alike `#pragma xpm`).
    Sentinel = "XMP0003";
    /// Unknown XMP directive name.
    UnknownDirective = "XMP0004";
    /// XMP directive known but not supported by xmpc.
    DirectiveUnsupported = "XMP0005";
    /// Unknown OpenACC construct.
    UnknownAcc = "XMP0006";
    /// Unexpected token.
    UnexpectedToken = "XMP0010";
    /// Directive ends too early.
    EarlyEnd = "XMP0011";
    /// Unknown clause, or clause not allowed on this directive.
    UnknownClause = "XMP0012";
    /// Clause given twice.
    DuplicateClause = "XMP0013";
    /// Conflicting clauses.
    ConflictingClauses = "XMP0014";
    /// Unclosed `(` or `[`.
    Unclosed = "XMP0015";
    /// Unknown distribution format.
    UnknownFormat = "XMP0020";
    /// Unknown reduction operator.
    UnknownReduction = "XMP0021";
    /// Syntax of the other host language.
    OtherLanguage = "XMP0022";
    /// Round and square spellings mixed in one shape.
    MixedSpelling = "XMP0023";
    /// Empty list.
    EmptyList = "XMP0024";
    /// Spec-first form without `:: name-list`.
    SpecFirst = "XMP0025";
    /// Unknown `/qualifier/`.
    UnknownQualifier = "XMP0026";
    /// Expected an expression.
    ExpectedExpr = "XMP0027";
    /// `end` directive misused.
    EndMisused = "XMP0028";
    /// Unknown `device` directive.
    UnknownDevice = "XMP0029";
    /// Node set (or node set or template in an `on` clause) not declared.
    NodesUndeclared = "XMP0101";
    /// Template not declared.
    TemplateUndeclared = "XMP0102";
    /// Array not declared.
    ArrayUndeclared = "XMP0103";
    /// Rank mismatch (align, shadow, reflect widths, template subscripts).
    RankMismatch = "XMP0104";
    /// Fortran block directive without its `end`, or an `end` without its opener.
    BlockNotClosed = "XMP0105";
    /// `loop` / `device loop` not followed by a loop.
    LoopNotFollowed = "XMP0106";
    /// `distribute` gives a different number of formats than the template has dimensions.
    DistributeFormats = "XMP0107";
    /// `distribute` distributes a different number of dimensions than the node set has.
    DistributeNodes = "XMP0108";
    /// `shadow` / `reflect` of an array not aligned with a template.
    NotAligned = "XMP0109";
    /// A literal size or width out of range.
    LiteralRange = "XMP0110";
    /// A constant subscript outside the node set or template.
    SubscriptRange = "XMP0111";
    /// `reflect` of an array with no `shadow` declaration.
    NoShadow = "XMP0112";
    /// An align index that is not a template subscript (`align a(i) with t(j)`).
    AlignIndex = "XMP0113";
    /// A declarative directive after the first executable statement.
    DeclarativeAfterExec = "XMP0114";
    /// A variable named in a clause (`reduction`, `bcast`, location variables) that is
    /// not declared.
    ClauseUndeclared = "XMP0115";
    /// A library routine's argument that must name an XMP object does not
    /// (`xmp_desc_of` of a plain variable, `xmp_transpose` of an array not aligned).
    LibraryArg = "XMP0116";
    /// C or Fortran code tree-sitter could not parse (warning).
    HostParse = "XMP0200";
    /// Fortran directive line ending in `&` with no continuation.
    DanglingContinuation = "XMP0202";
    /// Directive in a place it cannot apply.
    DirectiveMisplaced = "XMP0203";
    /// A typed function's result declared again in its body (warning; Omni accepts it).
    ResultTypedTwice = "XMP0204";
    /// A distributed array used without all its subscripts.
    PartialArray = "XMP0301";
    /// A `loop` whose loop nest cannot be work-shared.
    LoopNest = "XMP0302";
    /// A directive form xmpc does not support (in either language).
    Unsupported = "XMP0303";
    /// A directive xmpc does not translate yet.
    NotTranslated = "XMP0304";
    /// A distributed array named in code kept as text.
    ArrayInText = "XMP0305";
    /// The statement after `gmove` / `array` is not a section assignment xmpc understands.
    SectionAssign = "XMP0306";
    /// `goto` or `return` out of a `task` body.
    LeavesTask = "XMP0307";
    /// An XMP-dev form the work-sharing lowering cannot keep correct.
    DeviceForm = "XMP0330";
    /// A directive outside a Fortran program unit.
    OutsideUnit = "XMP0401";
    /// An aligned Fortran array whose declaration cannot be rewritten, or of an
    /// unsupported type.
    FortranDecl = "XMP0404";
    /// An aligned Fortran array that is an assumed-size dummy or a pointer.
    FortranPointer = "XMP0405";
    /// A Fortran directive inside a construct the front end keeps as text.
    FortranInText = "XMP0409";
    /// A coarray feature inside a `task` body with OpenCoarrays.
    CoarrayInTask = "XMP0450";
    /// A scalar complex coarray (gfortran miscompiles it).
    ComplexCoarray = "XMP0451";
    /// Coarray allocation inside a `task` body (no longer emitted: such a coarray is the task's, xmpc's libcaf).
    CoarrayAllocInTask = "XMP0452";
    /// An Omni coarray form xmpc cannot translate (an XMP 1.x collective in a logical IF, an ambiguous argument).
    CoarrayOmniForm = "XMP0453";
    /// A coindexed component of a coarray whose derived type has pointer or allocatable components.
    CoarrayByRef = "XMP0454";
    /// MPIETE: an MPI call with the wrong number of arguments.
    MpieteArgs = "XMP0601";
    /// MPIETE: a blocking Fortran MPI call sharing its line.
    MpieteLine = "XMP0602";
    /// C local-view syntax xmpc does not translate.
    LocalView = "XMP0701";
    /// A malformed `#pragma bsim` / `!$bsim` directive.
    BsimSyntax = "XMP0800";
    /// A bsim directive not before a statement of a function that communicates.
    BsimPlace = "XMP0801";
    /// `end compute` / `end keep` without its start.
    BsimEnd = "XMP0802";
    /// A `compute` region that calls MPI.
    BsimComputeComm = "XMP0803";
    /// A bsim directive followed by no statement.
    BsimDangling = "XMP0804";
    /// A block that cannot be instrumented (shares its Fortran line).
    BlockInstrument = "XMP0810";
    /// A block that cannot be skeletonized (shares its Fortran line).
    BlockSkeleton = "XMP0811";
    /// A compute block without a time (`--strict-times`).
    BlockNoTime = "XMP0812";
    /// PSIM: a compute block its processor model cannot read.
    PsimBlock = "XMP0850";
    /// Internal error: overlapping or out-of-file rewrites.
    Internal = "XMP0900";
}

impl Code {
    /// An error with this code, a message and a primary label.
    pub fn error(self, file: FileId, msg: impl std::fmt::Display, span: Span, label: impl std::fmt::Display) -> Diag {
        crate::diag::error(self.as_str(), msg, file, span, label)
    }

    /// A warning with this code.
    pub fn warning(self, file: FileId, msg: impl std::fmt::Display, span: Span, label: impl std::fmt::Display) -> Diag {
        crate::diag::Diagnostic::warning().with_code(self.as_str()).with_message(msg).with_labels(vec![Label::primary(file, span.range()).with_message(label)])
    }

    /// The code of a `XMPnnnn` string.
    pub fn parse(s: &str) -> Option<Code> {
        Code::ALL.iter().copied().find(|c| c.as_str() == s)
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::Code;

    #[test]
    fn codes_are_unique_and_well_formed() {
        let mut seen = std::collections::HashSet::new();
        for c in Code::ALL {
            let s = c.as_str();
            assert!(s.len() == 7 && s.starts_with("XMP") && s[3..].chars().all(|d| d.is_ascii_digit()), "{s}");
            assert!(seen.insert(s), "{s} twice");
            assert_eq!(Code::parse(s), Some(*c));
        }
    }
}
