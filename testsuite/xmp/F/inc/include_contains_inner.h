! an internal procedure of include_contains.F90's `work`
    integer function inner()
      inner = 3
    end function inner
