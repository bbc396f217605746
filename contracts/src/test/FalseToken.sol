// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title FalseToken
/// @notice Test only: a token in the style of early ERC-20s that returns `false` rather than reverting when
/// a transfer cannot be made (short balance or allowance, or an account its owner froze). Holds no value.
contract FalseToken {
    address public immutable owner;
    mapping(address account => uint256) public balanceOf;
    mapping(address account => mapping(address spender => uint256)) public allowance;
    mapping(address account => bool) public frozen;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(address initialOwner) {
        owner = initialOwner;
    }

    function mint(address to, uint256 amount) external {
        require(msg.sender == owner);
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function setFrozen(address account, bool value) external {
        require(msg.sender == owner);
        frozen[account] = value;
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        return _move(msg.sender, to, amount);
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        if (allowance[from][msg.sender] < amount) return false;
        if (!_move(from, to, amount)) return false;
        allowance[from][msg.sender] -= amount;
        return true;
    }

    function _move(address from, address to, uint256 amount) private returns (bool) {
        if (frozen[from] || frozen[to] || balanceOf[from] < amount) return false;
        balanceOf[from] -= amount;
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
        return true;
    }
}
